// An AND of label requirements folded into one check per key, so that matching an object costs
// about its number of labels, not the selector's number of terms. A label selector may be up to
// the 1 MiB header limit (100k terms); evaluated term by term against every object of a list,
// that held the single event loop for seconds. Folding keeps Requirement.matches' semantics:
// - key absent: in, =, ==, exists, gt, lt fail; notin, !=, ! pass;
// - key present: ! fails; in/= need the value in every set (their intersection); notin/!= need
//   it in none (their union); gt/lt need an integer value beyond every bound (the tightest).
// Counterpart of labels.Selector's Matches, made linear.
import { parseInt64, type Labels, type Requirement } from './requirement.ts';

interface KeyCheck {
  /** Some requirement fails when the key is absent. */
  required: boolean;
  /** A "!" requirement: the key must be absent. */
  forbidden: boolean;
  /** Intersection of the in / = / == value sets; undefined: no such requirement. */
  allowed: Set<string> | undefined;
  excluded: Set<string>;
  /** Tightest gt and lt bounds; `broken` when some gt/lt can never hold (bad bound). */
  above: bigint | undefined;
  below: bigint | undefined;
  broken: boolean;
}

export type LabelMatcher = (labels: Labels) => boolean;

function keyCheck(): KeyCheck {
  return { required: false, forbidden: false, allowed: undefined, excluded: new Set(), above: undefined, below: undefined, broken: false };
}

function fold(c: KeyCheck, r: Requirement): void {
  switch (r.operator) {
    case 'in': case '=': case '==': {
      c.required = true;
      const values = new Set(r.values);
      c.allowed = c.allowed === undefined ? values : new Set([...c.allowed].filter((v) => values.has(v)));
      return;
    }
    case 'notin': case '!=':
      for (const v of r.values) c.excluded.add(v);
      return;
    case 'exists':
      c.required = true;
      return;
    case '!':
      c.forbidden = true;
      return;
    case 'gt': case 'lt': {
      c.required = true;
      const bound = r.values.length === 1 ? parseInt64(r.values[0] ?? '') : undefined;
      if (bound === undefined) c.broken = true;
      else if (r.operator === 'gt') c.above = c.above === undefined || bound > c.above ? bound : c.above;
      else c.below = c.below === undefined || bound < c.below ? bound : c.below;
    }
  }
}

function valueMatches(c: KeyCheck, value: string): boolean {
  if (c.forbidden || c.broken) return false;
  if (c.allowed !== undefined && !c.allowed.has(value)) return false;
  if (c.excluded.has(value)) return false;
  if (c.above === undefined && c.below === undefined) return true;
  const n = parseInt64(value);
  if (n === undefined) return false;
  return (c.above === undefined || n > c.above) && (c.below === undefined || n < c.below);
}

/** One matcher for the AND of `reqs`. */
export function compileMatcher(reqs: readonly Requirement[]): LabelMatcher {
  const checks = new Map<string, KeyCheck>();
  for (const r of reqs) {
    let c = checks.get(r.key);
    if (c === undefined) checks.set(r.key, c = keyCheck());
    fold(c, r);
  }
  const required = [...checks].filter(([, c]) => c.required).map(([k]) => k);
  return (labels) => {
    // Every required key must be there; then each of the object's labels is checked once.
    for (const k of required) if (!Object.hasOwn(labels, k)) return false;
    for (const k in labels) {
      if (!Object.hasOwn(labels, k)) continue;
      const c = checks.get(k);
      if (c !== undefined && !valueMatches(c, labels[k] ?? '')) return false;
    }
    return true;
  };
}
