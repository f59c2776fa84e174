// IngressClasses (pkg/registry/networking/ingressclass): controller is immutable; parameters
// reference a cluster- or namespace-scoped resource (scope defaults to Cluster).
import { fieldPath, forbidden, invalid, notSupported, required, tooLong, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateImmutableField, validateNamespaceName, validateObjectMeta, validateObjectMetaUpdate } from '../../../apimachinery/validation/object-meta.ts';
import { byteLength, isDNS1123Subdomain } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, bumpGenerationIfChanged, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { IngressClass, IngressClassParametersReference } from '../v1/types.ts';
import { isDomainPrefixedPath } from '../../../apimachinery/validation/domain-prefixed-path.ts';
import { isPathSegmentName } from '../validation-helpers.ts';

const MAX_CONTROLLER_LENGTH = 250;
const SCOPES = ['Cluster', 'Namespace'];

function validateParameters(params: DeepReadonly<IngressClassParametersReference> | undefined): FieldError[] {
  if (params === undefined) return [];
  const p = fieldPath('spec', 'parameters');
  const errs: FieldError[] = [];
  if (params.apiGroup !== undefined) for (const m of isDNS1123Subdomain(params.apiGroup)) errs.push(invalid(p.child('apiGroup'), params.apiGroup, m));
  if ((params.kind ?? '') === '') errs.push(required(p.child('kind')));
  else for (const m of isPathSegmentName(params.kind ?? '')) errs.push(invalid(p.child('kind'), params.kind, m));
  if ((params.name ?? '') === '') errs.push(required(p.child('name')));
  else for (const m of isPathSegmentName(params.name ?? '')) errs.push(invalid(p.child('name'), params.name, m));
  if (params.scope === undefined) {
    errs.push(required(p.child('scope')));
    return errs;
  }
  if (!SCOPES.includes(params.scope)) {
    errs.push(notSupported(p.child('scope'), params.scope, SCOPES));
  } else if (params.scope === 'Namespace') {
    if (params.namespace === undefined) errs.push(required(p.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
    else for (const m of validateNamespaceName(params.namespace, false)) errs.push(invalid(p.child('namespace'), params.namespace, m));
  } else if (params.namespace !== undefined) {
    errs.push(forbidden(p.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
  }
  return errs;
}

function validateSpec(ic: DeepReadonly<IngressClass>): FieldError[] {
  const errs: FieldError[] = [];
  const controller = ic.spec?.controller ?? '';
  const cp = fieldPath('spec', 'controller');
  if (controller === '') errs.push(required(cp));
  else {
    if (byteLength(controller) > MAX_CONTROLLER_LENGTH) errs.push(tooLong(cp, '', MAX_CONTROLLER_LENGTH));
    errs.push(...isDomainPrefixedPath(cp, controller));
  }
  return [...errs, ...validateParameters(ic.spec?.parameters)];
}

function validateIngressClass(ic: DeepReadonly<IngressClass>): FieldError[] {
  return [...validateObjectMeta(ic.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain }), ...validateSpec(ic)];
}

/** SetDefaults_IngressClass. */
export function defaultIngressClass(ic: IngressClass): void {
  if (ic.spec?.parameters !== undefined) ic.spec.parameters.scope ??= 'Cluster';
}

function parametersCell(params: DeepReadonly<IngressClassParametersReference> | undefined): string {
  if (params === undefined) return '<none>';
  const kind = params.apiGroup !== undefined ? `${params.kind ?? ''}.${params.apiGroup}` : params.kind ?? '';
  return `${kind}/${params.name ?? ''}`;
}

export const ingressClasses = {
  group: 'networking.k8s.io', kind: 'IngressClass', resource: 'ingressclasses', singular: 'ingressclass', namespaced: false,
  strategy: specStatusStrategy<IngressClass>({
    prepareForCreate(_ctx, ic) { ic.metadata.generation = 1; },
    validate: (ic) => validateIngressClass(ic),
    prepareForUpdate(_ctx, ic, old) { bumpGenerationIfChanged(ic.metadata, ic.spec, old.spec); },
    // ValidateIngressClassUpdate runs the whole create validation (metadata included) after the immutability check.
    revalidateOnUpdate: false,
    validateUpdate: (ic, old) => [
      ...validateObjectMetaUpdate(ic.metadata, old.metadata),
      ...validateImmutableField(ic.spec?.controller ?? '', old.spec?.controller ?? '', fieldPath('spec', 'controller')),
      ...validateIngressClass(ic),
    ],
  }),
  defaults: defaultIngressClass,
  table: [
    nameColumn<IngressClass>(),
    { name: 'Controller', type: 'string', cell: (ic) => ic.spec?.controller ?? '' },
    { name: 'Parameters', type: 'string', cell: (ic) => parametersCell(ic.spec?.parameters) },
    ageColumn<IngressClass>(),
  ],
} satisfies ResourceDefinition<IngressClass>;
