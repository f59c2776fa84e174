// Ingresses (pkg/registry/networking/ingress): status is reset on create and kept by spec
// updates; generation follows the spec. The status subresource changes only status.
import { nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, bumpGenerationIfChanged, copyOf, nameColumn, setOptional, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import type { Ingress, IngressRule, IngressStatus } from '../v1/types.ts';
import { ingressStatusWarnings, ingressUpdateOptions, validateIngressCreateSpec, validateIngressSpec, validateIngressStatus } from './validation.ts';

/** Non-wide output clips the address list to 16 characters. */
const LOAD_BALANCER_WIDTH = 16;

function formatHosts(rules: DeepReadonly<IngressRule[]> | undefined): string {
  const list: string[] = [];
  let more = false;
  for (const rule of rules ?? []) {
    if (list.length === 3) more = true;
    if (!more && (rule.host ?? '') !== '') list.push(rule.host ?? '');
  }
  if (list.length === 0) return '*';
  return more ? `${list.join(',')} + ${(rules ?? []).length - 3} more...` : list.join(',');
}

function ingressAddress(status: DeepReadonly<IngressStatus> | undefined): string {
  const set = new Set<string>();
  for (const i of status?.loadBalancer?.ingress ?? []) {
    if ((i.ip ?? '') !== '') set.add(i.ip ?? '');
    else if ((i.hostname ?? '') !== '') set.add(i.hostname ?? '');
  }
  const r = [...set].sort().join(',');
  return r.length > LOAD_BALANCER_WIDTH ? `${r.slice(0, LOAD_BALANCER_WIDTH - 3)}...` : r;
}

const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

export const ingressStrategy = specStatusStrategy<Ingress>({
  prepareForCreate(_ctx, ing) {
    ing.status = {};
    ing.metadata.generation = 1;
  },
  validate: (ing) => [...validateObjectMeta(ing.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }), ...validateIngressCreateSpec(ing)],
  // Only on create, and only while spec.ingressClassName does not replace the annotation.
  warningsOnCreate: (ing) => (Object.hasOwn(ing.metadata.annotations ?? {}, INGRESS_CLASS_ANNOTATION) && (ing.spec?.ingressClassName ?? null) === null
    ? [`annotation ${JSON.stringify(INGRESS_CLASS_ANNOTATION)} is deprecated, please use 'spec.ingressClassName' instead`] : []),
  prepareForUpdate(_ctx, ing, old) {
    setOptional(ing, 'status', old.status === undefined ? undefined : copyOf<IngressStatus>(old.status));
    bumpGenerationIfChanged(ing.metadata, ing.spec, old.spec);
  },
  // ValidateIngressUpdate checks the metadata update and the new metadata itself, on top of the
  // store's generic checks (so kube reports a bad annotation up to four times).
  revalidateOnUpdate: false,
  validateUpdate: (ing, old) => [
    ...validateObjectMetaUpdate(ing.metadata, old.metadata),
    ...validateObjectMeta(ing.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }),
    ...validateIngressSpec(ing.spec ?? {}, ingressUpdateOptions(old)),
  ],
  // status and its loadBalancer are structs: Go always writes them ({"loadBalancer":{}}).
  canonicalize(ing) {
    ing.status ??= {};
    ing.status.loadBalancer ??= {};
  },
});

const ingressStatusStrategy = statusStrategy<Ingress>(ingressStrategy, {
  validate: (ing, old) => [...validateObjectMetaUpdate(ing.metadata, old.metadata), ...validateIngressStatus(ing.status, old.status)],
  warningsOnUpdate: (ing) => ingressStatusWarnings(ing.status),
});

export const ingresses = {
  group: 'networking.k8s.io', kind: 'Ingress', resource: 'ingresses', singular: 'ingress', shortNames: ['ing'], namespaced: true,
  strategy: ingressStrategy,
  statusStrategy: ingressStatusStrategy,
  table: [
    nameColumn<Ingress>(),
    { name: 'Class', type: 'string', cell: (i) => i.spec?.ingressClassName ?? '<none>' },
    { name: 'Hosts', type: 'string', cell: (i) => formatHosts(i.spec?.rules) },
    { name: 'Address', type: 'string', cell: (i) => ingressAddress(i.status) },
    { name: 'Ports', type: 'string', cell: (i) => ((i.spec?.tls ?? []).length > 0 ? '80, 443' : '80') },
    ageColumn<Ingress>(),
  ],
} satisfies ResourceDefinition<Ingress>;
