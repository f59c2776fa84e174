// The syntax check of a kubectl-style JSONPath template ("{.spec.a[0]}", "x{.b}y"): the errors
// client-go's parser gives, verbatim, without building or evaluating the tree. kube validates a
// ValidatingAdmissionPolicy's status.typeChecking fieldRefs this way.
// Counterpart of k8s.io/client-go/util/jsonpath/parser.go (Parse); the evaluator is not needed.

type NodeType = 'text' | 'list' | 'recursive' | 'other';

const isLetterOrDigit = (r: string): boolean => /^[\p{L}\p{Nd}]$/u.test(r);
const isAlphaNumeric = (r: string): boolean => r === '_' || isLetterOrDigit(r);
const isDigit = (r: string): boolean => /^\p{Nd}$/u.test(r);
const isEndOfLine = (r: string): boolean => r === '\r' || r === '\n';
/** eof is ''. */
const isTerminator = (r: string): boolean => r === '' || r === ' ' || r === '\t' || isEndOfLine(r) || '.,[]$@{}'.includes(r);

/** Go's %#U of a rune: U+0023 '#' (the character left out when it does not print). */
function goRune(r: string): string {
  const cp = r.codePointAt(0) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(r) ? `${hex} '${r}'` : hex;
}

/** strconv.UnquoteChar over the body of a quoted string; false when an escape is malformed. */
function unquotable(body: string, quote: string): boolean {
  let i = 0;
  const hex = (n: number): number | undefined => {
    const h = body.slice(i, i + n);
    if (h.length < n || !/^[0-9a-fA-F]+$/.test(h)) return undefined;
    i += n;
    return parseInt(h, 16);
  };
  while (i < body.length) {
    const c = body[i++] ?? '';
    if (c === quote) return false;
    if (c !== '\\') continue;
    const e = body[i++] ?? '';
    if ('abfnrtv\\'.includes(e) && e !== '') continue;
    if (e === '\'' || e === '"') { if (e !== quote) return false; continue; }
    if (e === 'x') { if (hex(2) === undefined) return false; continue; }
    if (e === 'u' || e === 'U') {
      const v = hex(e === 'u' ? 4 : 8);
      if (v === undefined || v > 0x10ffff || (v >= 0xd800 && v < 0xe000)) return false;
      continue;
    }
    if (e >= '0' && e <= '7') {
      const oct = body.slice(i - 1, i + 2);
      if (!/^[0-7]{3}$/.test(oct) || parseInt(oct, 8) > 255) return false;
      i += 2;
      continue;
    }
    return false;
  }
  return true;
}

class Syntax {
  private pos = 0;
  private start = 0;
  /** The type of the node last appended to the current list. */
  private last: NodeType | undefined;
  constructor(private readonly input: string) {}

  private next(): string {
    if (this.pos >= this.input.length) return '';
    const r = String.fromCodePoint(this.input.codePointAt(this.pos) ?? 0);
    this.pos += r.length;
    return r;
  }

  private backup(r: string): void { this.pos -= r.length; }
  private peek(): string { const r = this.next(); this.backup(r); return r; }
  private consume(): string { const v = this.input.slice(this.start, this.pos); this.start = this.pos; return v; }
  private startsWith(prefix: string): boolean { return this.input.startsWith(prefix, this.pos); }

  /** Parse: the text outside actions, then each action; an error message or undefined. */
  parse(): string | undefined {
    for (;;) {
      while (!this.startsWith('{')) if (this.next() === '') return undefined;
      this.pos += 1;
      this.consume();
      this.last = undefined;
      const err = this.action();
      if (err !== undefined) return err;
    }
  }

  /** parseInsideAction until the closing brace; undefined when the action closed. */
  private action(): string | undefined {
    for (;;) {
      if (this.startsWith('}')) {
        this.pos += 1;
        this.consume();
        return undefined;
      }
      if (this.startsWith('[?(')) { const e = this.filter(); if (e !== undefined) return e; continue; }
      if (this.startsWith('..')) {
        if (this.last === 'recursive') return 'invalid multiple recursive descent';
        this.pos += 2;
        this.consume();
        this.last = 'recursive';
        if (isAlphaNumeric(this.peek())) this.field();
        continue;
      }
      const r = this.next();
      if (r === '' || isEndOfLine(r)) return 'unclosed action';
      if (r === ' ' || r === '@' || r === '$') { this.consume(); continue; }
      let err: string | undefined;
      if (r === '[') err = this.array();
      else if (r === '"' || r === '\'') err = this.quote(r);
      else if (r === '.') this.field();
      else if (r === '+' || r === '-' || isDigit(r)) { this.backup(r); err = this.number(); }
      else if (isAlphaNumeric(r)) { this.backup(r); this.identifier(); }
      else return `unrecognized character in action: ${goRune(r)}`;
      if (err !== undefined) return err;
    }
  }

  private identifier(): void {
    for (;;) { const r = this.next(); if (isTerminator(r)) { this.backup(r); break; } }
    this.consume();
    this.last = 'other';
  }

  private field(): void {
    this.consume();
    for (;;) {
      const r = this.next();
      if (r === '\\') { this.next(); continue; }
      if (isTerminator(r)) { this.backup(r); break; }
    }
    this.consume();
    this.last = 'other';
  }

  private number(): string | undefined {
    const first = this.peek();
    if (first === '+' || first === '-') this.next();
    for (;;) { const r = this.next(); if (r !== '.' && !isDigit(r)) { this.backup(r); break; } }
    const value = this.consume();
    // strconv.Atoi, else strconv.ParseFloat
    if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)$/.test(value)) return `cannot parse number ${value}`;
    this.last = 'other';
    return undefined;
  }

  private array(): string | undefined {
    for (;;) {
      const r = this.next();
      if (r === '' || r === '\n') return 'unterminated array';
      if (r === ']') break;
    }
    let text = this.consume().slice(1, -1);
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) {
      for (const part of parts) {
        const e = subParse(`[${part.replace(/^ +| +$/g, '')}]`);
        if (e.error !== undefined) return e.error;
      }
      this.last = 'other';
      return undefined;
    }
    const dict = /^'([^']*)'$/.exec(text);
    if (dict !== null) {
      const e = subParse(`.${dict[1] ?? ''}`);
      if (e.error !== undefined) return e.error;
      if (e.last !== undefined) this.last = e.last;
      return undefined;
    }
    const slice = /^(-?[0-9]*)(:-?[0-9]*)?(:-?[0-9]*)?$/.exec(text);
    if (slice === null) return `invalid array index ${text}`;
    for (let i = 1; i <= 3; i++) {
      let v = slice[i] ?? '';
      if (v === '') continue;
      if (i > 1) v = v.slice(1);
      if (i > 1 && v === '') continue;
      // strconv.Atoi: a number that fits an int
      if (!/^-?[0-9]+$/.test(v) || BigInt(v) > (1n << 63n) - 1n || BigInt(v) < -(1n << 63n)) return `array index ${v} is not a number`;
    }
    this.last = 'other';
    return undefined;
  }

  private filter(): string | undefined {
    this.pos += 3;
    this.consume();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === '' || r === '\n') return 'unterminated filter';
      if (r === '"' || r === '\'') {
        if (!begin) { begin = true; pair = r; continue; }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')' && begin === end) break;
    }
    if (this.next() !== ']') return 'unclosed array expect ]';
    const text = this.consume().slice(0, -2);
    const m = /^([^!<>=]+)([!<>=]+)(.+?)$/.exec(text);
    const sides = m === null ? [text] : [m[1] ?? '', m[3] ?? ''];
    for (const side of sides) {
      const e = subParse(side);
      if (e.error !== undefined) return e.error;
    }
    this.last = 'other';
    return undefined;
  }

  private quote(end: string): string | undefined {
    for (;;) {
      const r = this.next();
      if (r === '' || r === '\n') return 'unterminated quoted string';
      if (r === end && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consume();
    if (!unquotable(value.slice(1, -1), end)) return `unquote string ${value} error invalid syntax`;
    this.last = 'text';
    return undefined;
  }

  /** The type of the node the last action appended last (for an array's dict key). */
  lastOfAction(): NodeType | undefined { return this.last; }
}

/** parseAction: one action's text parsed on its own. */
function subParse(text: string): { error: string | undefined; last: NodeType | undefined } {
  const s = new Syntax(`{${text}}`);
  const error = s.parse();
  return { error, last: s.lastOfAction() };
}

/** jsonpath.Parse: the parser's error message for a template, or undefined when it parses. */
export function jsonPathSyntaxError(template: string): string | undefined {
  return new Syntax(template).parse();
}
