// What a pod still held by scheduling gates may change besides ValidatePodUpdate's fields: its
// node selectors and required node affinity may gain terms, never lose or change them
// (validateNodeSelectorMutation, validateNodeAffinityMutation).
// Counterpart of pkg/apis/core/validation/validation.go (ValidatePodUpdate's scheduling-gate rules).
import { invalid, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { PodSpec } from '../v1/types.ts';
import { goStruct, goStructs, NODE_SELECTOR_TERM } from './go-struct.ts';
import { child, list, obj, objects, type Obj } from './spec-access.ts';

function nodeSelectorOnlyAdded(next: DeepReadonly<Record<string, string>> | undefined, prev: DeepReadonly<Record<string, string>> | undefined,
  p: FieldPath): FieldError[] {
  for (const [k, v] of Object.entries(prev ?? {})) {
    if (next?.[k] !== v) return [invalid(p, next ?? null, 'only additions to spec.nodeSelector are allowed (no mutations or deletions)')];
  }
  return [];
}

/** validateNodeSelectorTermHasOnlyAdditions. */
function termOnlyAdded(next: Obj, prev: Obj): boolean {
  const [ne, nf, pe, pf] = [list(next, 'matchExpressions'), list(next, 'matchFields'), list(prev, 'matchExpressions'), list(prev, 'matchFields')];
  if (pe.length === 0 && pf.length === 0 && (ne.length > 0 || nf.length > 0)) return false;
  if (pe.length > 0 && (ne.length < pe.length || !deepEqual(ne.slice(0, pe.length), pe))) return false;
  if (pf.length > 0 && (nf.length < pf.length || !deepEqual(nf.slice(0, pf.length), pf))) return false;
  return true;
}

function nodeAffinityOnlyAdded(next: Obj | undefined, prev: Obj | undefined, p: FieldPath): FieldError[] {
  const prevRequired = child(prev, 'requiredDuringSchedulingIgnoredDuringExecution');
  if (prevRequired === undefined) return [];
  const oldTerms = objects(prevRequired, 'nodeSelectorTerms');
  const newTerms = objects(child(next, 'requiredDuringSchedulingIgnoredDuringExecution'), 'nodeSelectorTerms');
  const tp = p.child('requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms');
  if (oldTerms.length > 0 && oldTerms.length !== newTerms.length) {
    return [invalid(tp, goStructs(newTerms, NODE_SELECTOR_TERM), 'no additions/deletions to non-empty NodeSelectorTerms list are allowed')];
  }
  const errs: FieldError[] = [];
  oldTerms.forEach((old, i) => {
    const term = newTerms[i] ?? {};
    if (!termOnlyAdded(term, old)) errs.push(invalid(tp.index(i), goStruct(term, NODE_SELECTOR_TERM), 'only additions are allowed (no mutations or deletions)'));
  });
  return errs;
}

/** Checks the gated pod's node constraints and sets them in `munged` back to the old ones, as kube does. */
export function validateGatedPodMutation(munged: PodSpec, old: DeepReadonly<PodSpec>, specPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!deepEqual(munged.nodeSelector, old.nodeSelector)) {
    errs.push(...nodeSelectorOnlyAdded(munged.nodeSelector, old.nodeSelector, specPath.child('nodeSelector')));
    if (old.nodeSelector === undefined) delete munged.nodeSelector;
    else munged.nodeSelector = { ...old.nodeSelector };
  }
  const oldNA = child(obj(old.affinity), 'nodeAffinity');
  const affinity = obj(munged.affinity) as Record<string, unknown> | undefined;
  const mungedNA = child(affinity, 'nodeAffinity');
  if (!deepEqual(oldNA, mungedNA)) {
    errs.push(...nodeAffinityOnlyAdded(mungedNA, oldNA, specPath.child('affinity', 'nodeAffinity')));
    const oldCopy = oldNA === undefined ? undefined : structuredClone(oldNA) as Record<string, unknown>;
    if (affinity === undefined) {
      if (oldCopy !== undefined) munged.affinity = { nodeAffinity: oldCopy };
    } else if (old.affinity === undefined && affinity['podAffinity'] === undefined && affinity['podAntiAffinity'] === undefined) {
      delete munged.affinity;
    } else if (oldCopy === undefined) {
      delete affinity['nodeAffinity'];
    } else {
      affinity['nodeAffinity'] = oldCopy;
    }
  }
  return errs;
}
