// SetDefaults for apiextensions.k8s.io/v1 CustomResourceDefinition.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/defaults.go.
import type { CustomResourceDefinition } from '../v1/types.ts';

export function defaultCRD(crd: CustomResourceDefinition): void {
  // Go's spec is a struct: a body without one decodes to the zero spec, which validation refuses.
  crd.spec ??= {} as CustomResourceDefinition['spec'];
  const spec = crd.spec;
  spec.names ??= {} as CustomResourceDefinition['spec']['names'];
  const names = spec.names;
  if ((names.singular ?? '') === '' && (names.kind ?? '') !== '') names.singular = names.kind.toLowerCase();
  if ((names.listKind ?? '') === '' && (names.kind ?? '') !== '') names.listKind = `${names.kind}List`;
  spec.conversion ??= { strategy: 'None' };
  // SetDefaults_ServiceReference
  const service = spec.conversion.webhook?.clientConfig?.service;
  if (service !== undefined && service !== null) service.port ??= 443;
}
