// apiregistration.k8s.io/v1 APIService: which server serves a group version. Local ones are
// served by this server; others name the Service of an aggregated API server.
// Counterpart of k8s.io/kube-aggregator/pkg/registry/apiservice and
// k8s.io/kube-aggregator/pkg/apis/apiregistration/validation.
import { fieldPath, invalid, notSupported, required, type FieldError } from '../../apimachinery/errors/field-errors.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { isDNS1123Subdomain } from '../../apimachinery/validation/validation.ts';
import { validateObjectMeta, validatePathSegmentName } from '../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition, Strategy } from '../../registry/rest/strategy.ts';
import { ageColumn, nameColumn } from '../../registry/rest/printers.ts';

export interface APIService extends KubeObject {
  spec: {
    service?: { namespace?: string; name?: string; port?: number } | null;
    group?: string;
    version?: string;
    insecureSkipTLSVerify?: boolean;
    caBundle?: string;
    groupPriorityMinimum?: number;
    versionPriority?: number;
  };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[] };
}

type RO = DeepReadonly<APIService>;

/** ValidateAPIService: the name is version.group, priorities in range, a local service has no TLS settings. */
export function validateAPIService(svc: RO): FieldError[] {
  // `v1.` (core) is a valid name: any path segment, which must then equal version.group.
  const errs = validateObjectMeta(svc.metadata, { namespaced: false, nameFn: validatePathSegmentName });
  const spec = svc.spec;
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  const name = svc.metadata.name ?? '';
  const want = `${version}.${group}`;
  if (name !== want) errs.push(invalid(fieldPath('metadata', 'name'), name, `must be \`spec.version+"."+spec.group\`: "${want}"`));
  if (group === '' && version !== 'v1') errs.push(required(fieldPath('spec', 'group'), 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '') for (const m of isDNS1123Subdomain(group)) errs.push(invalid(fieldPath('spec', 'group'), group, m));
  if (version === '') errs.push(required(fieldPath('spec', 'version')));
  const groupPriorityMinimum = spec.groupPriorityMinimum ?? 0;
  if (!(groupPriorityMinimum > 0 && groupPriorityMinimum <= 20000)) {
    errs.push(invalid(fieldPath('spec', 'groupPriorityMinimum'), groupPriorityMinimum, 'must be positive and less than 20000'));
  }
  const versionPriority = spec.versionPriority ?? 0;
  if (!(versionPriority > 0 && versionPriority <= 1000)) {
    errs.push(invalid(fieldPath('spec', 'versionPriority'), versionPriority, 'must be positive and less than 1000'));
  }
  if (spec.service === undefined || spec.service === null) {
    if ((spec.caBundle ?? '') !== '') errs.push(invalid(fieldPath('spec', 'caBundle'), spec.caBundle, 'local APIServices may not have a caBundle'));
    if (spec.insecureSkipTLSVerify === true) {
      errs.push(invalid(fieldPath('spec', 'insecureSkipTLSVerify'), true, 'local APIServices may not have insecureSkipTLSVerify'));
    }
  } else {
    if ((spec.service.namespace ?? '') === '') errs.push(required(fieldPath('spec', 'service', 'namespace')));
    if ((spec.service.name ?? '') === '') errs.push(required(fieldPath('spec', 'service', 'name')));
    const port = spec.service.port ?? 443;
    if (!(port >= 1 && port <= 65535)) errs.push(invalid(fieldPath('spec', 'service', 'port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
    if (spec.insecureSkipTLSVerify === true && (spec.caBundle ?? '') !== '') {
      errs.push(invalid(fieldPath('spec', 'insecureSkipTLSVerify'), true, 'may not be true if caBundle is present'));
    }
  }
  return errs;
}

const CONDITION_STATUSES = ['True', 'False', 'Unknown'];

/** ValidateAPIServiceStatus (status updates only): each condition's status is True, False or Unknown. */
export function validateAPIServiceStatus(svc: RO): FieldError[] {
  return (svc.status?.conditions ?? []).flatMap((c, i) => {
    // A condition without a status decodes to Go's "".
    const status = (c.status as string | undefined) ?? '';
    return CONDITION_STATUSES.includes(status) ? [] : [notSupported(fieldPath('status', 'conditions').index(i).child('status'), status, CONDITION_STATUSES)];
  });
}

function defaultAPIService(svc: APIService): void {
  // Go's APIServiceSpec is a struct: a body without spec decodes to the zero spec.
  svc.spec ??= {} as APIService['spec'];
  if (svc.spec.service !== undefined && svc.spec.service !== null && svc.spec.service.port === undefined) svc.spec.service.port = 443;
}

const strategy: Strategy<APIService> = {
  prepareForCreate(_ctx, svc) { svc.status = {}; },
  validate: (_ctx, svc) => validateAPIService(svc),
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  prepareForUpdate(_ctx, svc, old) {
    if (old.status !== undefined) svc.status = structuredClone(old.status) as NonNullable<APIService['status']>;
    else delete svc.status;
  },
  validateUpdate: (_ctx, svc) => validateAPIService(svc).filter((e) => !e.field.startsWith('metadata.')),
};

const statusStrategy: Strategy<APIService> = {
  ...strategy,
  resetFields: [['spec'], ['metadata']],
  prepareForUpdate(_ctx, svc, old) {
    svc.spec = structuredClone(old.spec) as APIService['spec'];
    // Labels, annotations, finalizers and owner references stay as stored.
    const meta = svc.metadata as Record<string, unknown>;
    for (const k of ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const) {
      const v = old.metadata[k];
      if (v === undefined) delete meta[k]; else meta[k] = structuredClone(v);
    }
  },
  validateUpdate: (_ctx, svc) => validateAPIServiceStatus(svc),
};

function available(svc: RO): string {
  const c = svc.status?.conditions?.find((x) => x.type === 'Available');
  if (c === undefined) return 'Unknown';
  return c.status === 'True' ? 'True' : `${c.status} (${c.reason ?? ''})`;
}

export const apiServices = {
  group: 'apiregistration.k8s.io', kind: 'APIService', resource: 'apiservices', singular: 'apiservice',
  categories: ['api-extensions'], namespaced: false,
  strategy, statusStrategy, defaults: defaultAPIService,
  // kube's aggregator stores APIServices as JSON whatever --storage-media-type says.
  storageEncoding: { mediaType: 'application/json' },
  table: [
    nameColumn<APIService>(),
    { name: 'Service', type: 'string', description: 'The reference to the service that hosts the API endpoint.',
      cell: (s) => (s.spec.service === undefined || s.spec.service === null ? 'Local' : `${s.spec.service.namespace ?? ''}/${s.spec.service.name ?? ''}`) },
    { name: 'Available', type: 'string', description: 'Whether this service is available.', cell: (s) => available(s) },
    ageColumn<APIService>(),
  ],
} satisfies ResourceDefinition<APIService>;

