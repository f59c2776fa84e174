// The three CSR endpoints (pkg/registry/certificates/certificates/strategy.go): the main resource
// changes only metadata and records the requesting user on create; /status may set the
// certificate and non-approval conditions; /approval may set only conditions (Approved/Denied).
import type { RequestContext } from '../../../apimachinery/request/context.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { copyOf, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import type { CertificateSigningRequest, CertificateSigningRequestCondition } from '../v1/types.ts';
import { validateCSR, validateCSRUpdate, validationOptions } from './validation.ts';

type CSR = CertificateSigningRequest;
type RO<T> = DeepReadonly<T>;

const nowRFC3339 = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

function specOf(old: RO<CSR>): CSR['spec'] {
  return old.spec === undefined ? undefined : copyOf<NonNullable<CSR['spec']>>(old.spec);
}

function setSpec(csr: CSR, spec: CSR['spec']): void {
  if (spec === undefined) delete csr.spec; else csr.spec = spec;
}

/** Replaces new conditions of `type` with the stored ones when their count is unchanged. */
function preserveConditionInstances(csr: CSR, old: RO<CSR>, type: string): void {
  const oldConds = (old.status?.conditions ?? []).filter((c) => c.type === type);
  const newIdx = (csr.status?.conditions ?? []).flatMap((c, i) => (c.type === type ? [i] : []));
  if (oldConds.length !== newIdx.length || csr.status?.conditions === undefined) return;
  newIdx.forEach((ni, k) => {
    const o = oldConds[k];
    if (o !== undefined && csr.status?.conditions !== undefined) csr.status.conditions[ni] = copyOf<CertificateSigningRequestCondition>(o);
  });
}

/** Fills lastUpdateTime, and lastTransitionTime from a stored condition of the same type and status. */
function populateConditionTimestamps(csr: CSR, old: RO<CSR>): void {
  const now = nowRFC3339();
  for (const c of csr.status?.conditions ?? []) {
    if ((c.lastUpdateTime ?? '') === '') c.lastUpdateTime = now;
    if ((c.lastTransitionTime ?? '') === '') {
      const prev = (old.status?.conditions ?? []).find((o) => o.type === c.type && o.status === c.status && (o.lastTransitionTime ?? '') !== '');
      c.lastTransitionTime = prev?.lastTransitionTime ?? now;
    }
  }
}

export const csrStrategy = specStatusStrategy<CSR>({
  resetFields: [['spec'], ['status']],
  prepareForCreate(ctx: RequestContext, csr) {
    const spec = csr.spec ?? {};
    delete spec.username; delete spec.uid; delete spec.groups; delete spec.extra;
    const user = ctx.user;
    if (user !== undefined) {
      spec.username = user.name;
      if ((user.uid ?? '') !== '') spec.uid = user.uid ?? '';
      if (user.groups.length > 0) spec.groups = [...user.groups];
      const extra = user.extra ?? {};
      if (Object.keys(extra).length > 0) spec.extra = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, [...v]]));
    }
    csr.spec = spec;
    // Users cannot create pre-approved requests.
    csr.status = {};
  },
  validate: (csr) => validateCSR(csr, validationOptions(csr, undefined)),
  prepareForUpdate(_ctx, csr, old) {
    setSpec(csr, specOf(old));
    if (old.status === undefined) delete csr.status; else csr.status = copyOf<NonNullable<CSR['status']>>(old.status);
  },
  revalidateOnUpdate: false,
  validateUpdate: (csr, old) => validateCSRUpdate(csr, old, validationOptions(csr, old)),
});

export const csrStatusStrategy = statusStrategy<CSR>(csrStrategy, {
  resetFields: [['spec'], ['status', 'conditions']],
  prepareForUpdate(_ctx, csr, old) {
    setSpec(csr, specOf(old));
    preserveConditionInstances(csr, old, 'Approved');
    preserveConditionInstances(csr, old, 'Denied');
    populateConditionTimestamps(csr, old);
  },
  validate: (csr, old) => validateCSRUpdate(csr, old, { ...validationOptions(csr, old), allowSettingCertificate: true }),
});

export const csrApprovalStrategy = statusStrategy<CSR>(csrStrategy, {
  resetFields: [['spec'], ['status', 'certificate']],
  prepareForUpdate(_ctx, csr, old) {
    setSpec(csr, specOf(old));
    const conditions = csr.status?.conditions;
    csr.status = old.status === undefined ? {} : copyOf<NonNullable<CSR['status']>>(old.status);
    if (conditions === undefined) delete csr.status.conditions; else csr.status.conditions = conditions;
    preserveConditionInstances(csr, old, 'Failed');
    populateConditionTimestamps(csr, old);
  },
  validate: (csr, old) => validateCSRUpdate(csr, old, { ...validationOptions(csr, old), allowSettingApprovalConditions: true }),
});
