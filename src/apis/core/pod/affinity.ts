// Scheduling constraints: node and pod (anti-)affinity (validateAffinity and its terms) and
// tolerations (ValidateTolerations).
// Counterpart of pkg/apis/core/validation/validation.go (validateAffinity, ValidateTolerations).
import { forbidden, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import { validateLabelSelector } from '../../../apimachinery/validation/label-selector.ts';
import { nameIsDNSLabel, nameIsDNSSubdomain, validateLabelName } from '../../../apimachinery/validation/object-meta.ts';
import { isValidLabelValue } from '../../../apimachinery/validation/validation.ts';
import { child, list, num, obj, objects, str, type Obj } from './spec-access.ts';

function validateNodeSelectorRequirement(rq: Obj, checkValues: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const values = list(rq, 'values');
  const op = str(rq, 'operator');
  switch (op) {
    case 'In': case 'NotIn':
      if (values.length === 0) errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists': case 'DoesNotExist':
      if (values.length > 0) errs.push(forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt': case 'Lt':
      if (values.length !== 1) errs.push(required(p.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(invalid(p.child('operator'), op, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(str(rq, 'key'), p.child('key')));
  if (checkValues) {
    values.forEach((v, i) => {
      const s = typeof v === 'string' ? v : '';
      for (const m of isValidLabelValue(s)) errs.push(invalid(p.child('values').index(i), s, m));
    });
  }
  return errs;
}

function validateNodeFieldSelectorRequirement(rq: Obj, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const op = str(rq, 'operator');
  const values = list(rq, 'values');
  if (op === 'In' || op === 'NotIn') {
    if (values.length !== 1) errs.push(required(p.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(invalid(p.child('operator'), op, 'not a valid selector operator'));
  }
  if (str(rq, 'key') !== 'metadata.name') errs.push(invalid(p.child('key'), str(rq, 'key'), 'not a valid field selector key'));
  else {
    values.forEach((v, i) => {
      const s = typeof v === 'string' ? v : '';
      for (const m of nameIsDNSSubdomain(s, false)) errs.push(invalid(p.child('values').index(i), s, m));
    });
  }
  return errs;
}

function validateNodeSelectorTerm(term: Obj, checkValues: boolean, p: FieldPath): FieldError[] {
  return [
    ...objects(term, 'matchExpressions').flatMap((rq, j) => validateNodeSelectorRequirement(rq, checkValues, p.child('matchExpressions').index(j))),
    ...objects(term, 'matchFields').flatMap((rq, j) => validateNodeFieldSelectorRequirement(rq, p.child('matchFields').index(j))),
  ];
}

/** ValidateNodeSelector: at least one term, each valid (label values checked unless allowed invalid). */
export function validateNodeSelector(sel: Obj, checkValues: boolean, p: FieldPath): FieldError[] {
  const tp = p.child('nodeSelectorTerms');
  const terms = objects(sel, 'nodeSelectorTerms');
  if (terms.length === 0) return [required(tp, 'must have at least one node selector term')];
  return terms.flatMap((t, i) => validateNodeSelectorTerm(t, checkValues, tp.index(i)));
}

function validateWeight(term: Obj, p: FieldPath): FieldError[] {
  const w = num(term, 'weight') ?? 0;
  return w <= 0 || w > 100 ? [invalid(p.child('weight'), w, 'must be in the range 1-100')] : [];
}

function validateNodeAffinity(na: Obj, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const req = child(na, 'requiredDuringSchedulingIgnoredDuringExecution');
  if (req !== undefined) {
    const tp = p.child('requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms');
    const terms = objects(req, 'nodeSelectorTerms');
    if (terms.length === 0) errs.push(required(tp, 'must have at least one node selector term'));
    terms.forEach((t, i) => errs.push(...validateNodeSelectorTerm(t, true, tp.index(i))));
  }
  objects(na, 'preferredDuringSchedulingIgnoredDuringExecution').forEach((t, i) => {
    const ip = p.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
    // invalid label values are tolerated in preferences: they can still match on one node
    errs.push(...validateWeight(t, ip), ...validateNodeSelectorTerm(child(t, 'preference') ?? {}, false, ip.child('preference')));
  });
  return errs;
}

function selector(o: Obj, k: string): LabelSelector | undefined {
  return obj(o[k]) as LabelSelector | undefined;
}

/** ValidateMatchLabelKeysAndMismatchLabelKeys: valid label names, a selector to add them to, no key in both lists. */
export function validateMatchLabelKeys(term: Obj, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const labelSelector = selector(term, 'labelSelector');
  const match = list(term, 'matchLabelKeys').map((k) => (typeof k === 'string' ? k : ''));
  const mismatch = list(term, 'mismatchLabelKeys').map((k) => (typeof k === 'string' ? k : ''));
  for (const [name, keys] of [['matchLabelKeys', match], ['mismatchLabelKeys', mismatch]] as const) {
    if (keys.length === 0) continue;
    const kp = p.child(name);
    if (labelSelector === undefined) errs.push(forbidden(kp, 'must not be specified when labelSelector is not set'));
    else keys.forEach((k, i) => errs.push(...validateLabelName(k, kp.index(i))));
  }
  const mismatched = new Set(mismatch);
  match.forEach((k, i) => { if (mismatched.has(k)) errs.push(invalid(p.child('matchLabelKeys').index(i), k, 'exists in both matchLabelKeys and mismatchLabelKeys')); });
  return errs;
}

function validatePodAffinityTerm(term: Obj, p: FieldPath): FieldError[] {
  const errs = [
    ...validateLabelSelector(selector(term, 'labelSelector'), {}, p.child('labelSelector')),
    ...validateLabelSelector(selector(term, 'namespaceSelector'), {}, p.child('namespaceSelector')),
  ];
  for (const ns of list(term, 'namespaces')) {
    const name = typeof ns === 'string' ? ns : '';
    // kube names the list `namespace`
    for (const m of nameIsDNSLabel(name, false)) errs.push(invalid(p.child('namespace'), name, m));
  }
  errs.push(...validateMatchLabelKeys(term, p));
  const key = str(term, 'topologyKey');
  if (key === '') errs.push(required(p.child('topologyKey'), 'can not be empty'));
  return [...errs, ...validateLabelName(key, p.child('topologyKey'))];
}

function validatePodAffinity(pa: Obj, p: FieldPath): FieldError[] {
  return [
    ...objects(pa, 'requiredDuringSchedulingIgnoredDuringExecution')
      .flatMap((t, i) => validatePodAffinityTerm(t, p.child('requiredDuringSchedulingIgnoredDuringExecution').index(i))),
    ...objects(pa, 'preferredDuringSchedulingIgnoredDuringExecution').flatMap((t, i) => {
      const ip = p.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
      return [...validateWeight(t, ip), ...validatePodAffinityTerm(child(t, 'podAffinityTerm') ?? {}, ip.child('podAffinityTerm'))];
    }),
  ];
}

export function validateAffinity(raw: unknown, p: FieldPath): FieldError[] {
  const a = obj(raw);
  if (a === undefined) return [];
  const errs: FieldError[] = [];
  const na = child(a, 'nodeAffinity');
  if (na !== undefined) errs.push(...validateNodeAffinity(na, p.child('nodeAffinity')));
  for (const k of ['podAffinity', 'podAntiAffinity'] as const) {
    const pa = child(a, k);
    if (pa !== undefined) errs.push(...validatePodAffinity(pa, p.child(k)));
  }
  return errs;
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** ValidateTolerations (TaintTolerationComparisonOperators is off in v1.36: Lt and Gt are refused). */
export function validateTolerations(tolerations: readonly unknown[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((raw, i) => {
    const t = obj(raw) ?? {};
    const ip = p.index(i);
    const key = str(t, 'key');
    const op = str(t, 'operator');
    const value = str(t, 'value');
    const effect = str(t, 'effect');
    if (key !== '') errs.push(...validateLabelName(key, ip.child('key')));
    if (key === '' && op !== 'Exists') {
      errs.push(invalid(ip.child('operator'), op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (num(t, 'tolerationSeconds') !== undefined && effect !== 'NoExecute') {
      errs.push(invalid(ip.child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (op) {
      case 'Equal': case '': {
        const msgs = isValidLabelValue(value);
        if (msgs.length > 0) errs.push(invalid(ip.child('operator'), value, msgs.join(';')));
        break;
      }
      case 'Exists':
        if (value !== '') errs.push(invalid(ip.child('operator'), value, "value must be empty when `operator` is 'Exists'"));
        break;
      case 'Lt': case 'Gt':
        errs.push(notSupported(ip.child('operator'), op, ['Equal', 'Exists', 'Lt', 'Gt']));
        break;
      default:
        errs.push(notSupported(ip.child('operator'), op, ['Equal', 'Exists']));
    }
    if (effect !== '' && !TAINT_EFFECTS.includes(effect)) errs.push(notSupported(ip.child('effect'), effect, TAINT_EFFECTS));
  });
  return errs;
}
