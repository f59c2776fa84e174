// CertificateSigningRequest validation (pkg/apis/certificates/validation): the request is a
// self-signed PEM CSR, usages from the known set, a valid signerName, Approved/Denied/Failed
// conditions only True, and which condition changes each endpoint may make.
import {
  duplicate, fieldPath, forbidden, invalid, notSupported, required, type FieldError,
} from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { checkCertificates, checkCSR } from '../pem.ts';
import { validateSignerName } from '../signer-name.ts';
import type { CertificateSigningRequest } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
type CSR = RO<CertificateSigningRequest>;

const LEGACY_UNKNOWN_SIGNER_NAME = 'kubernetes.io/legacy-unknown';
const KEY_USAGES = [
  'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment',
  'decipher only', 'digital signature', 'email protection', 'encipher only', 'ipsec end system', 'ipsec tunnel',
  'ipsec user', 'key agreement', 'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime',
  'server auth', 'signing', 'timestamping',
];
const TRUE_ONLY_TYPES = ['Approved', 'Denied', 'Failed'];
const ALL_STATUS = ['False', 'True', 'Unknown'];

/** What each update path may change, and what old data we tolerate (getValidationOptions). */
export interface CSRValidationOptions {
  allowSettingApprovalConditions: boolean;
  allowSettingCertificate: boolean;
  allowBothApprovedAndDenied: boolean;
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowUnknownUsages: boolean;
  allowDuplicateUsages: boolean;
}

const b64 = (s: string | undefined): Buffer | undefined => (s === undefined ? undefined : Buffer.from(s, 'base64'));
const conditions = (csr: CSR) => csr.status?.conditions ?? [];
const ofType = (csr: CSR, t: string) => conditions(csr).filter((c) => c.type === t);

export function validationOptions(csr: CSR, old: CSR | undefined): CSRValidationOptions {
  const types = old === undefined ? [] : conditions(old).map((c) => c.type);
  const oldUsages = old?.spec?.usages ?? [];
  return {
    allowSettingApprovalConditions: false,
    allowSettingCertificate: false,
    allowBothApprovedAndDenied: types.includes('Approved') && types.includes('Denied'),
    allowLegacySignerName: old?.spec?.signerName === LEGACY_UNKNOWN_SIGNER_NAME,
    allowDuplicateConditionTypes: new Set(types).size !== types.length,
    allowEmptyConditionType: types.includes(''),
    allowArbitraryCertificate: old !== undefined && ((csr.status?.certificate ?? '') === (old.status?.certificate ?? '') ||
      ((old.status?.certificate ?? '') !== '' && checkCertificates(b64(old.status?.certificate)?.toString('latin1') ?? '') !== undefined)),
    allowUnknownUsages: oldUsages.some((u) => !KEY_USAGES.includes(u)),
    allowDuplicateUsages: new Set(oldUsages).size !== oldUsages.length,
  };
}

export function validateCSR(csr: CSR, opts: CSRValidationOptions): FieldError[] {
  // Any name is fine for a CSR (ValidateCertificateRequestName accepts everything).
  const errs = validateObjectMeta(csr.metadata, { namespaced: false, nameFn: () => [] });
  const spec = csr.spec ?? {};
  const p = fieldPath('spec');
  const request = b64(spec.request);
  const problem = checkCSR(request ?? Buffer.alloc(0));
  // The bad value is the request bytes as JSON prints a []byte: base64, or null when absent.
  if (problem !== undefined) errs.push(invalid(p.child('request'), request === undefined ? null : request.toString('base64'), problem));
  const usages = spec.usages ?? [];
  if (usages.length === 0) errs.push(required(p.child('usages'), ''));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => { if (!KEY_USAGES.includes(u)) errs.push(notSupported(p.child('usages').index(i), u, KEY_USAGES)); });
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => { if (seen.has(u)) errs.push(duplicate(p.child('usages').index(i), u)); seen.add(u); });
  }
  const signer = spec.signerName ?? '';
  if (!opts.allowLegacySignerName && signer === LEGACY_UNKNOWN_SIGNER_NAME) {
    errs.push(invalid(p.child('signerName'), signer, 'the legacy signerName is not allowed via this API version'));
  } else {
    errs.push(...validateSignerName(p.child('signerName'), signer));
  }
  if (spec.expirationSeconds !== undefined && spec.expirationSeconds < 600) {
    errs.push(invalid(p.child('expirationSeconds'), spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errs.push(...validateConditions(csr, opts));
  if (!opts.allowArbitraryCertificate && (csr.status?.certificate ?? '') !== '') {
    const certProblem = checkCertificates(b64(csr.status?.certificate)?.toString('latin1') ?? '');
    if (certProblem !== undefined) errs.push(invalid(fieldPath('status', 'certificate'), '<certificate data>', certProblem));
  }
  return errs;
}

function validateConditions(csr: CSR, opts: CSRValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const p = fieldPath('status', 'conditions');
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditions(csr).forEach((c, i) => {
    const cp = p.index(i);
    if (!opts.allowEmptyConditionType && c.type === '') errs.push(required(cp.child('type'), ''));
    const allowed = TRUE_ONLY_TYPES.includes(c.type) ? ['True'] : ALL_STATUS;
    if ((c.status ?? '') === '') errs.push(required(cp.child('status'), ''));
    else if (!allowed.includes(c.status)) errs.push(notSupported(cp.child('status'), c.status, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      // reported on the list, not the item (kube's zeroOrOneOf origin)
      if (c.type === 'Approved') { approved = true; if (denied) errs.push(invalid(p, c.type, 'Approved and Denied conditions are mutually exclusive')); }
      if (c.type === 'Denied') { denied = true; if (approved) errs.push(invalid(p, c.type, 'Approved and Denied conditions are mutually exclusive')); }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(c.type)) errs.push(duplicate(cp.child('type'), c.type));
      seen.add(c.type);
    }
  });
  return errs;
}

/** validateCertificateSigningRequestUpdate without the metadata checks the Store runs itself. */
export function validateCSRUpdate(csr: CSR, old: CSR, opts: CSRValidationOptions): FieldError[] {
  const errs = validateCSR(csr, opts).filter((e) => !e.field.startsWith('metadata.'));
  const cp = fieldPath('status', 'conditions');
  for (const t of ['Approved', 'Denied', 'Failed']) {
    if (ofType(csr, t).length < ofType(old, t).length) errs.push(forbidden(cp, `updates may not remove a condition of type ${JSON.stringify(t)}`));
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const t of ['Approved', 'Denied']) {
      const before = ofType(old, t);
      const after = ofType(csr, t);
      if (after.length > before.length) errs.push(forbidden(cp, `updates may not add a condition of type ${JSON.stringify(t)}`));
      else if (after.length === before.length && !deepEqual(before, after)) {
        errs.push(forbidden(cp, `updates may not modify a condition of type ${JSON.stringify(t)}\n${conditionDiff(before, after)}`));
      }
    }
  }
  if ((csr.status?.certificate ?? '') !== (old.status?.certificate ?? '')) {
    if (!opts.allowSettingCertificate) errs.push(forbidden(fieldPath('status', 'certificate'), 'updates may not set certificate content'));
    else if ((old.status?.certificate ?? '') !== '') errs.push(forbidden(fieldPath('status', 'certificate'), 'updates may not modify existing certificate content'));
  }
  return errs;
}

// Go prints a cmp.Diff here; an approximation in the same spirit (removed/added lines).
function conditionDiff(before: readonly unknown[], after: readonly unknown[]): string {
  return [...before.map((c) => `- ${JSON.stringify(c)}`), ...after.map((c) => `+ ${JSON.stringify(c)}`)].join('\n');
}
