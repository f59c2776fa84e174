// Namespaces (pkg/registry/core/namespace): cluster-scoped, status and finalize subresources,
// no deletecollection. Deleting a namespace with finalizers only marks it Terminating; that
// two-phase delete lives in the Store's namespace special case, not here.
import type { RequestContext } from '../../../apimachinery/request/context.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, copyOf, nameColumn, setOptional, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import type { Namespace } from '../v1/types.ts';
import { namespaceStorage } from './storage.ts';
import { validateNamespace, validateNamespaceFinalizeUpdate, validateNamespaceStatusUpdate } from './validation.ts';
import { repeatedMetadataErrors, validateNamespaceName } from '../../../apimachinery/validation/object-meta.ts';

const FINALIZER_KUBERNETES = 'kubernetes';

/** SetDefaults_Namespace (+ status): the immutable name label and phase Active. */
export function defaultNamespace(ns: Namespace): void {
  const name = ns.metadata.name ?? '';
  if (name !== '') ns.metadata.labels = { ...ns.metadata.labels, 'kubernetes.io/metadata.name': name };
  // status is a struct in Go, always there to default (webhooks see the decoded object).
  if (ns.status === undefined) ns.status = { phase: 'Active' };
  else if (ns.status.phase === undefined || (ns.status.phase as string) === '') ns.status.phase = 'Active';
}

const namespaceStrategy = specStatusStrategy<Namespace>({
  prepareForCreate(_ctx: RequestContext, ns: Namespace) {
    ns.status = { phase: 'Active' };
    const finalizers = ns.spec?.finalizers ?? [];
    if (!finalizers.includes(FINALIZER_KUBERNETES)) ns.spec = { ...ns.spec, finalizers: [...finalizers, FINALIZER_KUBERNETES] };
  },
  validate: (ns) => validateNamespace(ns),
  prepareForUpdate(_ctx, ns, old) {
    // spec.finalizers change only through /finalize, status only through /status
    ns.spec = { ...ns.spec };
    setOptional(ns.spec, 'finalizers', old.spec?.finalizers === undefined ? undefined : [...old.spec.finalizers]);
    setOptional(ns, 'status', old.status === undefined ? undefined : copyOf<Namespace['status']>(old.status));
  },
  // ValidateNamespace and ValidateNamespaceUpdate repeat the metadata checks
  revalidateOnUpdate: false,
  validateUpdate: (ns, old) => [...validateNamespace(ns).filter((e) => !e.field.startsWith('metadata.')),
    ...repeatedMetadataErrors(ns.metadata, old.metadata, { update: true, create: { namespaced: false, nameFn: validateNamespaceName } })],
});

const namespaceStatusStrategy = statusStrategy<Namespace>(namespaceStrategy, {
  validate: (ns, old) => [...validateNamespaceStatusUpdate(ns), ...repeatedMetadataErrors(ns.metadata, old.metadata, { update: true })],
});

/** PUT /api/v1/namespaces/{name}/finalize: only spec.finalizers may change. */
export const namespaceFinalizeStrategy = statusStrategy<Namespace>(namespaceStrategy, {
  specFields: ['status'],
  resetFields: [['status']],
  prepareForUpdate(_ctx, ns, old: DeepReadonly<Namespace>) {
    const finalizers = ns.spec?.finalizers;
    ns.spec = { ...copyOf<Namespace['spec']>(old.spec) };
    setOptional(ns.spec, 'finalizers', finalizers);
  },
  validate: (ns, old) => [...validateNamespaceFinalizeUpdate(ns), ...repeatedMetadataErrors(ns.metadata, old.metadata, { update: true })],
});

export const namespaces = {
  group: '', kind: 'Namespace', resource: 'namespaces', singular: 'namespace', shortNames: ['ns'],
  namespaced: false,
  strategy: namespaceStrategy,
  statusStrategy: namespaceStatusStrategy,
  disabledVerbs: ['deletecollection'],
  updateSubresources: { finalize: namespaceFinalizeStrategy },
  putOnlySubresources: ['finalize'],
  customizeStorage: namespaceStorage,
  // ShouldDeleteNamespaceDuringUpdate: a status update of a Terminating namespace keeps it while spec.finalizers remain.
  deletesDuringUpdate: (ns) => (ns.spec?.finalizers ?? []).length === 0,
  defaults: defaultNamespace,
  selectableFields: (ns) => ({
    'metadata.name': ns.metadata.name ?? '',
    'status.phase': ns.status?.phase ?? '',
    name: ns.metadata.name ?? '', // the legacy selector kube still accepts
  }),
  table: [
    nameColumn<Namespace>(),
    { name: 'Status', type: 'string', cell: (ns) => ns.status?.phase ?? '' },
    ageColumn<Namespace>(),
  ],
} satisfies ResourceDefinition<Namespace>;
