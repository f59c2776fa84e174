// Workloads (scheduling.k8s.io/v1alpha2, off by default): namespaced; pod group templates are
// required, uniquely named, and fixed after create. Light validation of kube's rules.
// Counterpart of pkg/registry/scheduling/workload.
import { duplicate, fieldPath, invalid, required, tooMany, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSLabel, nameIsDNSSubdomain, validateObjectMeta, validatePathSegmentName } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import { validateSchedulingPolicy } from '../policy.ts';
import type { Workload } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
const MAX_POD_GROUP_TEMPLATES = 8;

function validateWorkload(w: RO<Workload>): FieldError[] {
  const errs = validateObjectMeta(w.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const p = fieldPath('spec');
  const ref = w.spec?.controllerRef;
  if (ref !== undefined) {
    const rp = p.child('controllerRef');
    if ((ref.kind ?? '') === '') errs.push(required(rp.child('kind'), ''));
    else for (const m of validatePathSegmentName(ref.kind ?? '', false)) errs.push(invalid(rp.child('kind'), ref.kind, m));
    if ((ref.name ?? '') === '') errs.push(required(rp.child('name'), ''));
    else for (const m of validatePathSegmentName(ref.name ?? '', false)) errs.push(invalid(rp.child('name'), ref.name, m));
  }
  const templates = w.spec?.podGroupTemplates ?? [];
  const tp = p.child('podGroupTemplates');
  if (templates.length === 0) errs.push(required(tp, 'must have at least one item'));
  else if (templates.length > MAX_POD_GROUP_TEMPLATES) errs.push(tooMany(tp, templates.length, MAX_POD_GROUP_TEMPLATES));
  const names = new Set<string>();
  templates.forEach((t, i) => {
    const name = t.name ?? '';
    if (name === '') errs.push(required(tp.index(i).child('name'), ''));
    else for (const m of nameIsDNSLabel(name, false)) errs.push(invalid(tp.index(i).child('name'), name, m));
    if (names.has(name)) errs.push(duplicate(tp.index(i), t));
    names.add(name);
    errs.push(...validateSchedulingPolicy(t.schedulingPolicy, tp.index(i).child('schedulingPolicy')));
  });
  return errs;
}

function validateWorkloadUpdate(w: RO<Workload>, old: RO<Workload>): FieldError[] {
  const errs: FieldError[] = [];
  if (old.spec?.controllerRef !== undefined && !deepEqual(w.spec?.controllerRef, old.spec.controllerRef)) {
    errs.push(invalid('spec.controllerRef', w.spec?.controllerRef, 'field is immutable'));
  }
  if (!deepEqual(w.spec?.podGroupTemplates ?? null, old.spec?.podGroupTemplates ?? null)) {
    errs.push(invalid('spec.podGroupTemplates', w.spec?.podGroupTemplates, 'field is immutable'));
  }
  return errs;
}

export const workloads = {
  group: 'scheduling.k8s.io', kind: 'Workload', resource: 'workloads', singular: 'workload', namespaced: true,
  strategy: specStatusStrategy<Workload>({ validate: validateWorkload, validateUpdate: validateWorkloadUpdate }),
  table: [nameColumn<Workload>(), ageColumn<Workload>()],
} satisfies ResourceDefinition<Workload>;
