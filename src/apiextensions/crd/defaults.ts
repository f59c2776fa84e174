// SetDefaults for apiextensions.k8s.io/v1 CustomResourceDefinition.
import type { CustomResourceDefinition } from '../v1/types.ts';

export function defaultCRD(crd: CustomResourceDefinition): void {
  const spec = crd.spec as CustomResourceDefinition['spec'] | undefined;
  if (spec === undefined || spec === null) return;
  const names = spec.names as CustomResourceDefinition['spec']['names'] | undefined;
  if (names !== undefined && names !== null) {
    if ((names.singular ?? '') === '' && (names.kind ?? '') !== '') names.singular = names.kind.toLowerCase();
    if ((names.listKind ?? '') === '' && (names.kind ?? '') !== '') names.listKind = `${names.kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
}
