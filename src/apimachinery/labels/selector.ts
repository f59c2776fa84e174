// labels.Selector: an AND of requirements, plus the Everything and Nothing selectors.
import { compileMatcher, type LabelMatcher } from './matcher.ts';
import { Requirement, type Labels } from './requirement.ts';

export interface Selector {
  /** True if the labels satisfy every requirement (undefined labels count as no labels). */
  matches(labels: Labels | undefined): boolean;
  /** True when the selector does not restrict anything (Everything). Nothing is not empty. */
  readonly empty: boolean;
  /** The requirements, sorted by key; undefined for Nothing (it selects no object at all). */
  readonly requirements: readonly Requirement[] | undefined;
  /** The canonical text form (requirements joined with ','). */
  toString(): string;
  /** The single value the selector requires for `label` (=, ==, or in with one value). */
  requiresExactMatch(label: string): string | undefined;
}

const NO_LABELS: Labels = {};

class InternalSelector implements Selector {
  readonly requirements: readonly Requirement[];
  constructor(reqs: readonly Requirement[]) {
    this.requirements = reqs;
  }
  get empty(): boolean { return this.requirements.length === 0; }
  private matcher: LabelMatcher | undefined;
  matches(labels: Labels | undefined): boolean {
    const ls = labels ?? NO_LABELS;
    // Few terms: as they are; many (a selector may be 1 MiB): folded per key, built once.
    if (this.requirements.length <= 8 && this.requirements.every((r) => r.values.length <= 16)) {
      return this.requirements.every((r) => r.matches(ls));
    }
    this.matcher ??= compileMatcher(this.requirements);
    return this.matcher(ls);
  }
  toString(): string { return this.requirements.map((r) => r.toString()).join(','); }
  requiresExactMatch(label: string): string | undefined {
    for (const r of this.requirements) {
      if (r.key !== label) continue;
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
      return undefined;
    }
    return undefined;
  }
}

/** Sorts by key as the Go parser does, keeping the input order of equal keys. */
const sortByKey = (reqs: readonly Requirement[]): Requirement[] =>
  [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/** A selector that is the AND of the requirements (sorted by key). */
export function newSelector(reqs: readonly Requirement[] = []): Selector {
  return new InternalSelector(sortByKey(reqs));
}

const EVERYTHING_SELECTOR: Selector = new InternalSelector([]);

/** Matches every object. */
export const everything = (): Selector => EVERYTHING_SELECTOR;

const NOTHING_SELECTOR: Selector = {
  empty: false,
  requirements: undefined,
  matches: () => false,
  toString: () => '',
  requiresExactMatch: () => undefined,
};

/** Matches no object (a null metav1.LabelSelector). */
export const nothing = (): Selector => NOTHING_SELECTOR;

/** labels.SelectorFromSet: key=value for every entry, without validation. Empty set: Everything. */
export function selectorFromSet(set: Labels | undefined): Selector {
  if (set === undefined) return EVERYTHING_SELECTOR;
  return newSelector(Object.entries(set).map(([k, v]) => new Requirement(k, '=', [v])));
}

/** Returns a new selector with the added requirements (Selector.Add). */
export function addRequirements(sel: Selector, ...reqs: Requirement[]): Selector {
  if (sel.requirements === undefined) return sel;
  return newSelector([...sel.requirements, ...reqs]);
}
