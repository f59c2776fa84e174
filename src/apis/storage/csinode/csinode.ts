// CSINodes (pkg/registry/storage/csinode): one per node, named like it; a driver entry may not
// change once registered (its allocatable count may, MutableCSINodeAllocatableCount).
import { duplicate, fieldPath, GoSyntax, invalid, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { validateCSIDriverName } from '../../core/persistentvolume/sources.ts';
import { deepEqual, nameIsDNSSubdomain, validateNonnegativeField, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { CSINode } from '../v1/types.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';

type RO<T> = DeepReadonly<T>;
const CSI_NODE_ID_MAX_LENGTH = 256;

function validateCSINode(n: RO<CSINode>): FieldError[] {
  const errs = validateObjectMeta(n.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const names = new Set<string>();
  (n.spec?.drivers ?? []).forEach((d, i) => {
    const p = fieldPath('spec', 'drivers').index(i);
    const name = d.name ?? '';
    errs.push(...validateCSIDriverName(name, p.child('name')));
    const id = d.nodeID ?? '';
    if (id.length === 0) errs.push(required(p.child('nodeID'), ''));
    if (id.length > CSI_NODE_ID_MAX_LENGTH) errs.push(invalid(p.child('nodeID'), id, `must be ${CSI_NODE_ID_MAX_LENGTH} characters or less`));
    if (d.allocatable?.count !== undefined) errs.push(...validateNonnegativeField(d.allocatable.count, p.child('allocatable', 'count')));
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    names.add(name);
    const keys = new Set<string>();
    for (const key of d.topologyKeys ?? []) {
      if (key.length === 0) errs.push(required(p, key));
      if (keys.has(key)) errs.push(duplicate(p, key));
      keys.add(key);
      for (const m of isQualifiedName(key)) errs.push(invalid(p, key, m));
    }
  });
  return errs;
}

/** A driver as kube prints it in the immutability error: Go field names, allocatable cleared. */
const driverValue = (d: RO<NonNullable<NonNullable<CSINode['spec']>['drivers']>[number]>): GoSyntax =>
  new GoSyntax(JSON.stringify({ Name: d.name ?? '', NodeID: d.nodeID ?? '', TopologyKeys: d.topologyKeys ?? null, Allocatable: null }));

function validateCSINodeUpdate(n: RO<CSINode>, old: RO<CSINode>): FieldError[] {
  const errs: FieldError[] = [];
  const strip = (d: RO<NonNullable<NonNullable<CSINode['spec']>['drivers']>[number]>): unknown => ({ ...d, allocatable: undefined });
  for (const o of old.spec?.drivers ?? []) {
    for (const d of n.spec?.drivers ?? []) {
      if (o.name === d.name && !deepEqual(strip(d), strip(o))) errs.push(invalid(fieldPath('spec', 'drivers'), driverValue(d), 'field is immutable'));
    }
  }
  return errs;
}

export const csiNodes = {
  group: 'storage.k8s.io', kind: 'CSINode', resource: 'csinodes', singular: 'csinode', namespaced: false,
  // spec is a struct and its drivers have no omitempty: kube writes {drivers: null} for an absent spec.
  goZeroValues: (o) => { setZero(o, ['spec'], {}); setZero(o, ['spec', 'drivers'], null); },
  returnDeletedObject: true, // as kube's storage: a DELETE answers with the object, not a Status
  strategy: specStatusStrategy<CSINode>({ allowUnconditionalUpdate: false, validate: validateCSINode, validateUpdate: validateCSINodeUpdate }),
  table: [
    nameColumn<CSINode>(),
    column<CSINode>('Drivers', 'integer', (n) => (n.spec?.drivers ?? []).length),
    ageColumn<CSINode>(),
  ],
} satisfies ResourceDefinition<CSINode>;
