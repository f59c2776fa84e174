// Field selectors (k8s.io/apimachinery/pkg/fields): `a=b,c!=d,e==f`, values escaped with `\`.
// Only the value side is unescaped; the field name ends at the first operator.

export type Fields = Readonly<Record<string, string>>;

export type FieldOperator = '=' | '!=';

export interface FieldRequirement {
  readonly field: string;
  /** '==' is parsed as '=' (the two are the same operator). */
  readonly operator: FieldOperator;
  readonly value: string;
}

/** A field selector that could not be parsed; the message is kube's, verbatim. */
export class FieldSelectorError extends Error {
  override readonly name = 'FieldSelectorError';
}

export interface FieldSelector {
  /** True when every term holds; a field missing from the set counts as the empty string. */
  matches(fields: Fields): boolean;
  /** True when the selector selects everything. */
  readonly empty: boolean;
  readonly requirements: readonly FieldRequirement[];
  /** The value an `=` term requires for `field`, if any (e.g. metadata.name for single-object watches). */
  requiresExactMatch(field: string): string | undefined;
  /** Text form: terms joined with ',' and values escaped. */
  toString(): string;
}

/** EscapeValue: `\` → `\\`, `,` → `\,`, `=` → `\=`. */
export function escapeValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/**
 * UnescapeValue: reverses escapeValue. Throws `invalid field selector: invalid escape sequence: \x`
 * or, for a bare `,` or `=`, `invalid field selector: unescaped character in value: 61` (Go prints the rune's code).
 */
export function unescapeValue(value: string): string {
  if (!/[\\,=]/.test(value)) return value;
  let out = '';
  let inSlash = false;
  for (const c of value) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') {
      throw new FieldSelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0) ?? 0}`);
    } else out += c;
  }
  if (inSlash) throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** The terms on one field, folded: every `=` value (more than one distinct: never) and the `!=` values. */
interface FieldCheck { equal: string[]; notEqual: Set<string> }

const fieldValue = (fields: Fields, field: string): string => (Object.hasOwn(fields, field) ? (fields[field] ?? '') : '');

class AndSelector implements FieldSelector {
  private folded: [string, FieldCheck][] | undefined;
  constructor(readonly requirements: readonly FieldRequirement[]) {}
  get empty(): boolean { return this.requirements.length === 0; }
  matches(fields: Fields): boolean {
    if (this.requirements.length <= 8) {
      return this.requirements.every((r) => {
        const v = fieldValue(fields, r.field);
        return r.operator === '=' ? v === r.value : v !== r.value;
      });
    }
    // A selector may hold 100k terms (1 MiB of query) on the few selectable fields: checked per
    // field, an object costs one lookup per field instead of one per term.
    this.folded ??= this.fold();
    return this.folded.every(([field, c]) => {
      const v = fieldValue(fields, field);
      return c.equal.every((e) => e === v) && !c.notEqual.has(v);
    });
  }
  private fold(): [string, FieldCheck][] {
    const byField = new Map<string, FieldCheck>();
    for (const r of this.requirements) {
      let c = byField.get(r.field);
      if (c === undefined) byField.set(r.field, c = { equal: [], notEqual: new Set() });
      if (r.operator === '!=') c.notEqual.add(r.value);
      else if (!c.equal.includes(r.value)) c.equal.push(r.value);
      // Two different required values can never both hold; one of them is enough to fail.
      if (c.equal.length > 2) c.equal.length = 2;
    }
    return [...byField];
  }
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }
  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeValue(r.value)}`).join(',');
  }
}

const EVERYTHING: FieldSelector = new AndSelector([]);

export const everythingFields = (): FieldSelector => EVERYTHING;

/** A selector from requirements, in the given order. */
export const newFieldSelector = (reqs: readonly FieldRequirement[]): FieldSelector => new AndSelector([...reqs]);

/** OneTermEqualSelector. */
export const oneTermEqualSelector = (field: string, value: string): FieldSelector =>
  new AndSelector([{ field, operator: '=', value }]);

/** SelectorFromSet: field=value for every entry. */
export function fieldSelectorFromSet(set: Fields): FieldSelector {
  return new AndSelector(Object.entries(set).map(([field, value]) => ({ field, operator: '=' as const, value })));
}

/** Splits on commas that are not escaped; the escapes stay in the terms. */
function splitTerms(selector: string): string[] {
  if (selector === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') { terms.push(selector.slice(start, i)); start = i + 1; }
  }
  terms.push(selector.slice(start));
  return terms;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

/** The first operator in the term splits it (no escaping on the field side). */
function splitTerm(term: string): { lhs: string; op: (typeof TERM_OPERATORS)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** Go's sort.Strings: byte order of UTF-8 (code unit order is the same outside surrogates). */
const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * fields.ParseSelector. Terms are sorted; empty terms are ignored. Throws a FieldSelectorError:
 * `invalid selector: 'a'; can't understand 'a'` or an escaping error.
 */
export function parseFieldSelector(selector: string): FieldSelector {
  const parts = splitTerms(selector).sort(byteOrder);
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (t === undefined) throw new FieldSelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    reqs.push({ field: t.lhs, operator: t.op === '!=' ? '!=' : '=', value: unescapeValue(t.rhs) });
  }
  return new AndSelector(reqs);
}

/** Maps a field label and value to their internal names; throws to reject the field. */
export type FieldTransform = (field: string, value: string) => { field: string; value: string };

/**
 * Selector.Transform: rewrites every term. A term transformed to an empty field and value is
 * dropped (it then selects everything). Errors thrown by fn propagate.
 */
export function transformFieldSelector(sel: FieldSelector, fn: FieldTransform): FieldSelector {
  const out: FieldRequirement[] = [];
  for (const r of sel.requirements) {
    const t = fn(r.field, r.value);
    if (t.field === '' && t.value === '') continue;
    out.push({ field: t.field, operator: r.operator, value: t.value });
  }
  return new AndSelector(out);
}
