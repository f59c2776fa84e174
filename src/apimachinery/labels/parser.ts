// The label selector grammar of k8s.io/apimachinery/pkg/labels (Parse), with kube's messages:
//   selector    ::= requirement | requirement "," selector
//   requirement ::= ["!"] KEY [ ("in" | "notin") "(" VALUES ")" | ("=" | "==" | "!=" | ">" | "<") VALUE ]
import { BINARY_OPERATORS, LabelSelectorError, NIL_PATH, newRequirement, validateLabelKey, fieldErrorsMessage,
  type Operator, type Requirement } from './requirement.ts';
import { newBadRequest } from '../errors/status-error.ts';
import { newSelector, type Selector } from './selector.ts';

type Token = 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';

const KEYWORDS: ReadonlyMap<string, Token> = new Map<string, Token>([
  [')', ')'], [',', ','], ['!', '!'], ['==', '=='], ['=', '='], ['>', '>'], ['in', 'in'], ['<', '<'],
  ['!=', '!='], ['notin', 'notin'], ['(', '('],
]);

interface Item { readonly tok: Token; readonly lit: string }

const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecial = (ch: string): boolean => '=!(),><'.includes(ch) && ch !== '';

/** Splits the input into tokens; a NUL character ends the input as it does in Go's lexer. */
function lex(input: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  const read = (): string => (pos < input.length ? (input[pos++] ?? '') : '\0');
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    if (ch === '\0') { items.push({ tok: 'eos', lit: '' }); return items; }
    if (isSpecial(ch)) {
      // Longest run of special characters that is still a known operator.
      let buf = ch;
      let last: Item | undefined = KEYWORDS.has(buf) ? { tok: KEYWORDS.get(buf) ?? 'error', lit: buf } : undefined;
      for (;;) {
        const next = read();
        if (next === '\0') break;
        if (!isSpecial(next)) { pos--; break; }
        buf += next;
        const t = KEYWORDS.get(buf);
        if (t !== undefined) last = { tok: t, lit: buf };
        else if (last !== undefined) { pos--; break; }
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` });
      continue;
    }
    let buf = ch;
    for (;;) {
      const next = read();
      if (next === '\0') break;
      if (isSpecial(next) || isWhitespace(next)) { pos--; break; }
      buf += next;
    }
    const t = KEYWORDS.get(buf);
    items.push({ tok: t ?? 'id', lit: buf });
  }
}

/** In value position the keywords `in` and `notin` are plain identifiers. */
const asValue = (it: Item): Item => (it.tok === 'in' || it.tok === 'notin' ? { tok: 'id', lit: it.lit } : it);

const OPERATOR_OF: Partial<Record<Token, Operator>> = {
  'in': 'in', '=': '=', '==': '==', '>': 'gt', '<': 'lt', 'notin': 'notin', '!=': '!=',
};

class Parser {
  private position = 0;
  constructor(private readonly items: readonly Item[]) {}

  private at(i: number): Item { return this.items[Math.min(i, this.items.length - 1)] ?? { tok: 'eos', lit: '' }; }
  private lookahead(values: boolean): Item { const it = this.at(this.position); return values ? asValue(it) : it; }
  private consume(values: boolean): Item { const it = this.at(this.position++); return values ? asValue(it) : it; }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead(true);
      if (tok === 'eos') return reqs;
      if (tok !== 'id' && tok !== '!') throw new LabelSelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      let r: Requirement;
      try {
        r = this.parseRequirement();
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        throw new LabelSelectorError(`unable to parse requirement: ${msg}`);
      }
      reqs.push(r);
      const next = this.consume(true);
      if (next.tok === 'eos') return reqs;
      if (next.tok !== ',') throw new LabelSelectorError(`found '${next.lit}', expected: ',' or 'end of string'`);
      const after = this.lookahead(true);
      if (after.tok !== 'id' && after.tok !== '!') {
        throw new LabelSelectorError(`found '${after.lit}', expected: identifier after ','`);
      }
    }
  }

  private parseRequirement(): Requirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, []);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, op, [...values].sort());
  }

  private parseKeyAndInferOperator(): { key: string; operator: Operator | '' } {
    let operator: Operator | '' = '';
    let it = this.consume(true);
    if (it.tok === '!') {
      operator = '!';
      it = this.consume(true);
    }
    if (it.tok !== 'id') throw new Error(`found '${it.lit}', expected: identifier`);
    const keyErr = validateLabelKey(it.lit, NIL_PATH);
    if (keyErr !== undefined) throw new Error(fieldErrorsMessage([keyErr]));
    const next = this.lookahead(true).tok;
    if ((next === 'eos' || next === ',') && operator !== '!') operator = 'exists';
    return { key: it.lit, operator };
  }

  private parseOperator(): Operator {
    const { tok, lit } = this.consume(false);
    const op = OPERATOR_OF[tok];
    if (op === undefined) throw new Error(`found '${lit}', expected: ${BINARY_OPERATORS.join(', ')}`);
    return op;
  }

  private parseValues(): Set<string> {
    const open = this.consume(true);
    if (open.tok !== '(') throw new Error(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead(true);
    if (tok === 'id' || tok === ',') {
      const s = this.parseIdentifiersList();
      if (this.consume(true).tok !== ')') throw new Error(`found '${lit}', expected: ')'`);
      return s;
    }
    if (tok === ')') {
      this.consume(true);
      return new Set(['']);
    }
    throw new Error(`found '${lit}', expected: ',', ')' or identifier`);
  }

  /** A comma separated list in which empty entries mean the empty value. */
  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume(true);
      if (tok === 'id') {
        s.add(lit);
        const next = this.lookahead(true);
        if (next.tok === ',') continue;
        if (next.tok === ')') return s;
        throw new Error(`found '${next.lit}', expected: ',' or ')'`);
      }
      if (tok === ',') {
        if (s.size === 0) s.add('');
        const next = this.lookahead(true).tok;
        if (next === ')') { s.add(''); return s; }
        if (next === ',') { this.consume(true); s.add(''); }
        continue;
      }
      throw new Error(`found '${lit}', expected: ',', or identifier`);
    }
  }

  private parseExactValue(): Set<string> {
    const next = this.lookahead(true).tok;
    if (next === 'eos' || next === ',') return new Set(['']);
    const { tok, lit } = this.consume(true);
    if (tok === 'id') return new Set([lit]);
    throw new Error(`found '${lit}', expected: identifier`);
  }
}

/**
 * labels.Parse. Throws a LabelSelectorError with kube's message, e.g.
 * `unable to parse requirement: <nil>: Invalid value: "a b": ...` or `found ')', expected: ...`.
 */
export function parseSelector(input: string): Selector {
  return newSelector(new Parser(lex(input)).parse());
}

/** labels.ParseToRequirements: the requirements, sorted by key. */
export function parseToRequirements(input: string): readonly Requirement[] {
  return parseSelector(input).requirements ?? [];
}

/** Parses the `labelSelector` query parameter; a syntax error becomes a 400 BadRequest with kube's message. */
export function parseLabelSelectorParam(text: string): Selector {
  try {
    return parseSelector(text);
  } catch (err) {
    throw err instanceof LabelSelectorError ? newBadRequest(err.message) : err;
  }
}
