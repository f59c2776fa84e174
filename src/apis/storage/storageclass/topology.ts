// ValidateTopologySelectorTerm for StorageClass.allowedTopologies: keys are qualified names, each
// key appears once per term with at least one value, each once, and terms are not repeated.
// Counterpart of pkg/apis/core/validation/validation.go (ValidateTopologySelectorTerm) and pkg/apis/storage/validation.
import { duplicate, invalid, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { TopologySelectorTerm } from '../v1/types.ts';

/** reflect.DeepEqual of two terms' key → sorted values maps (an empty value set is no absent key). */
function sameTerm(a: Readonly<Record<string, string[]>>, b: Readonly<Record<string, string[]>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => {
    const x = a[k];
    const y = b[k];
    return x !== undefined && y !== undefined && x.length === y.length && x.every((v, i) => v === y[i]);
  });
}

export function validateTopologySelectorTerms(terms: DeepReadonly<TopologySelectorTerm[]> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  // kube's list of seen terms starts with one empty entry per term, so an empty term is always a duplicate
  const seen: Record<string, string[]>[] = (terms ?? []).map(() => ({}));
  (terms ?? []).forEach((term, i) => {
    const exprMap: Record<string, string[]> = {};
    (term.matchLabelExpressions ?? []).forEach((req, j) => {
      const p = path.index(i).child('matchLabelExpressions').index(j);
      const values = [...new Set(req.values ?? [])].sort();
      if (values.length === 0) errs.push(required(p.child('values'), ''));
      const seenValues = new Set<string>();
      (req.values ?? []).forEach((v, k) => {
        if (seenValues.has(v)) errs.push(duplicate(p.child('values').index(k), v));
        seenValues.add(v);
      });
      for (const m of isQualifiedName(req.key)) errs.push(invalid(p.child('key'), req.key, m));
      if (req.key in exprMap) errs.push(duplicate(p.child('key'), req.key));
      exprMap[req.key] = values;
    });
    for (const s of seen) if (sameTerm(s, exprMap)) errs.push(duplicate(path.index(i).child('matchLabelExpressions'), ''));
    seen.push(exprMap);
  });
  return errs;
}
