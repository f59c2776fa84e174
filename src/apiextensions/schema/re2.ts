// CRD `pattern`s are Go regexps (RE2 syntax, kube compiles them with regexp.Compile). This parses a
// pattern as Go's regexp/syntax does, refusing what Go refuses with Go's error text, and translates
// what it accepts into a JavaScript RegExp (unicode mode) that matches the same strings: `\z`, `\A`,
// `\Q..\E`, `(?flags)`, `\pL`, `[[:alpha:]]`, Go's `.` and `\s`, and Go's literal `{`.

/** A pattern Go's regexp.Compile refuses; `message` is Go's err.Error(). */
export class RE2SyntaxError extends Error {
  override readonly name = 'RE2SyntaxError';
  constructor(code: string, expr: string) { super(`error parsing regexp: ${code}: \`${expr}\``); }
}

interface Flags { i: boolean; m: boolean; s: boolean; U: boolean }

const MAX_REPEAT = 1000;
const POSIX: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: 'A-Z',
  word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};
// Go's Perl classes are ASCII; JS's \s is Unicode, so it is spelled out.
const PERL: Readonly<Record<string, string>> = { d: '0-9', s: '\\t\\n\\f\\r ', w: '0-9A-Za-z_' };
const UNICODE_CATEGORIES = new Set(['C', 'Cc', 'Cf', 'Co', 'Cs', 'L', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn',
  'N', 'Nd', 'Nl', 'No', 'P', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm', 'So', 'Z', 'Zl', 'Zp', 'Zs']);

const lit = (cp: number): string => `\\u{${cp.toString(16)}}`;
const isAlnum = (c: string): boolean => /^[0-9A-Za-z]$/.test(c);
const isWordName = (n: string): boolean => /^[A-Za-z0-9_]+$/.test(n);

/** Compiles `pattern` as Go would; throws RE2SyntaxError with Go's message when Go refuses it. */
export function compileRE2(pattern: string): RegExp {
  return new RegExp(translateRE2(pattern), 'u');
}

/** The JS (unicode-mode) source matching what Go's regexp matches for `pattern`. */
export function translateRE2(pattern: string): string {
  return new Parser(pattern).parse();
}

class Parser {
  private pos = 0;
  private depth = 0;
  /** What the last atom was, for repetition checks: none, an atom, or a repetition (with its start). */
  private last: { kind: 'none' | 'atom' } | { kind: 'repeat'; start: number } = { kind: 'none' };
  private readonly src: string;
  constructor(src: string) { this.src = src; }

  parse(): string {
    const out = this.alternation({ i: false, m: false, s: false, U: false });
    if (this.pos < this.src.length) throw new RE2SyntaxError('unexpected )', this.src);
    return out;
  }

  private peek(off = 0): string { return this.src[this.pos + off] ?? ''; }

  /** A sequence of alternatives up to an unmatched `)` or the end; flags set inside stay inside. */
  private alternation(outer: Flags): string {
    const flags = { ...outer };
    let out = '';
    this.last = { kind: 'none' };
    while (this.pos < this.src.length) {
      const start = this.pos;
      const c = this.peek();
      if (c === ')') {
        if (this.depth === 0) throw new RE2SyntaxError('unexpected )', this.src);
        break;
      }
      if (c === '|') { this.pos++; out += '|'; this.last = { kind: 'none' }; continue; }
      if (c === '*' || c === '+' || c === '?' || (c === '{' && this.repeatAt(this.pos) !== undefined)) {
        out += this.repeat(start, flags);
        continue;
      }
      const atom = this.atom(flags);
      if (atom === undefined) continue;             // a flag group: changes flags, matches nothing
      out += atom;
    }
    return out;
  }

  /** `{n}`, `{n,}` or `{n,m}` at `at`: its bounds and end, or undefined when Go reads `{` literally. */
  private repeatAt(at: number): { min: number; max: number; end: number } | undefined {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(at));
    if (m === null) return undefined;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? -1 : Number(m[3]);
    return { min, max, end: at + m[0].length };
  }

  private repeat(start: number, flags: Flags): string {
    const c = this.peek();
    let op: string;
    if (c === '{') {
      const r = this.repeatAt(this.pos);
      if (r === undefined) throw new Error('unreachable');
      this.pos = r.end;
      op = this.src.slice(start, r.end);
      if (r.min > MAX_REPEAT || r.max > MAX_REPEAT || (r.max >= 0 && r.min > r.max)) throw new RE2SyntaxError('invalid repeat count', op);
    } else {
      this.pos++;
      op = c;
    }
    let lazy = false;
    if (this.peek() === '?') { this.pos++; lazy = true; }
    const text = this.src.slice(start, this.pos);
    if (this.last.kind === 'repeat') throw new RE2SyntaxError('invalid nested repetition operator', this.src.slice(this.last.start, this.pos));
    if (this.last.kind === 'none') throw new RE2SyntaxError('missing argument to repetition operator', text);
    this.last = { kind: 'repeat', start };
    return op + (lazy !== flags.U ? '?' : '');
  }

  /** One atom, wrapped so a following quantifier applies to all of it; undefined for `(?flags)`. */
  private atom(flags: Flags): string | undefined {
    const c = this.peek();
    this.last = { kind: 'atom' };
    switch (c) {
      case '(': return this.group(flags);
      case '[': return this.charClass(flags);
      case '.': this.pos++; return flags.s ? '[^]' : '[^\\n]';
      case '^': this.pos++; return flags.m ? '(?:(?<![^\\n]))' : '(?:^)';
      case '$': this.pos++; return flags.m ? '(?:(?![^\\n]))' : '(?:$)';
      case '\\': return this.escape(flags);
      default: {
        const cp = this.src.codePointAt(this.pos) ?? 0;
        this.pos += cp > 0xffff ? 2 : 1;
        return literal(cp, flags);
      }
    }
  }

  private group(flags: Flags): string | undefined {
    const start = this.pos;
    const rest = this.src.slice(start);
    let prefix = '(';
    if (rest.startsWith('(?')) {
      if (rest.startsWith('(?P<') || rest.startsWith('(?<')) {
        const end = rest.indexOf('>');
        if (end < 0) throw new RE2SyntaxError('invalid named capture', rest);
        const name = rest.slice(rest.indexOf('<') + 1, end);
        if (!isWordName(name)) throw new RE2SyntaxError('invalid named capture', rest.slice(0, end + 1));
        this.pos += end + 1;
      } else {
        const inner = this.flagGroup(flags);
        if (inner === 'set') { this.last = { kind: 'none' }; return undefined; }
        prefix = '(?:';
        flags = inner;
      }
    } else {
      this.pos++;
    }
    this.depth++;
    const body = this.alternation(flags);
    this.depth--;
    if (this.peek() !== ')') throw new RE2SyntaxError('missing closing )', this.src);
    this.pos++;
    this.last = { kind: 'atom' };
    return `${prefix}${body})`;
  }

  /** `(?flags)` (sets flags for the rest of the group: returns 'set') or `(?flags:` (returns the group's flags). */
  private flagGroup(flags: Flags): Flags | 'set' {
    const start = this.pos;
    this.pos += 2;
    const next = { ...flags };
    let negate = false;
    let saw = false;
    for (;;) {
      const c = this.peek();
      if (c === '') break;
      this.pos++;
      if (c === 'i' || c === 'm' || c === 's' || c === 'U') { next[c] = !negate; saw = true; continue; }
      if (c === '-' && !negate) { negate = true; saw = false; continue; }
      if ((c === ':' || c === ')') && !(negate && !saw)) {
        if (c === ':') return next;
        Object.assign(flags, next);
        return 'set';
      }
      break;
    }
    throw new RE2SyntaxError('invalid or unsupported Perl syntax', this.src.slice(start, this.pos));
  }

  private escape(flags: Flags): string {
    const start = this.pos;
    const c = this.peek(1);
    if (c === '') throw new RE2SyntaxError('trailing backslash at end of expression', '');
    switch (c) {
      case 'A': this.pos += 2; return '(?:^)';
      case 'z': this.pos += 2; return '(?:$)';
      case 'b': this.pos += 2; return '(?:\\b)';
      case 'B': this.pos += 2; return '(?:\\B)';
      case 'Q': {
        const end = this.src.indexOf('\\E', start + 2);
        const text = this.src.slice(start + 2, end < 0 ? undefined : end);
        this.pos = end < 0 ? this.src.length : end + 2;
        return `(?:${[...text].map((ch) => literal(ch.codePointAt(0) ?? 0, flags)).join('')})`;
      }
      default: {
        const cls = this.classEscape();
        return cls.kind === 'char' ? literal(cls.cp, flags) : `[${cls.set}]`;
      }
    }
  }

  /** An escape usable in and out of classes: one code point, or a set (class body, JS syntax). */
  private classEscape(): { kind: 'char'; cp: number } | { kind: 'set'; set: string } {
    const start = this.pos;
    const c = this.peek(1);
    this.pos += 2;
    const bad = (): never => { throw new RE2SyntaxError('invalid escape sequence', this.src.slice(start, this.pos)); };
    if (c === '') throw new RE2SyntaxError('trailing backslash at end of expression', '');
    const simple: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
    if (c in simple) return { kind: 'char', cp: simple[c] ?? 0 };
    const perl = PERL[c.toLowerCase()];
    if (perl !== undefined) return { kind: 'set', set: c === c.toLowerCase() ? perl : `^${perl}` };
    if (c >= '1' && c <= '7' && !/[0-7]/.test(this.peek())) bad();   // a backreference: RE2 has none
    if (c >= '0' && c <= '7') {
      let digits = c;
      while (digits.length < 3 && /[0-7]/.test(this.peek())) { digits += this.peek(); this.pos++; }
      return { kind: 'char', cp: parseInt(digits, 8) };
    }
    if (c === 'x') {
      const m = /^\{([0-9A-Fa-f]+)\}|^[0-9A-Fa-f]{2}/.exec(this.src.slice(this.pos));
      if (m === null) { this.pos = Math.min(this.src.length, this.pos + 2); return bad(); }
      this.pos += m[0].length;
      const cp = parseInt(m[1] ?? m[0], 16);
      if (cp > 0x10ffff) return bad();
      return { kind: 'char', cp };
    }
    if (c === 'p' || c === 'P') {
      let name = this.peek();
      if (name === '{') {
        const end = this.src.indexOf('}', this.pos);
        if (end < 0) { this.pos = this.src.length; return bad(); }
        name = this.src.slice(this.pos + 1, end);
        this.pos = end + 1;
      } else {
        if (name === '') return bad();
        this.pos++;
      }
      let neg = c === 'P';
      if (name.startsWith('^')) { neg = !neg; name = name.slice(1); }
      const prop = name === 'Any' ? 'Any' : UNICODE_CATEGORIES.has(name) ? name : isWordName(name) ? `Script=${name}` : '';
      if (prop === '' || !isSupportedProperty(prop)) throw new RE2SyntaxError('invalid character class range', this.src.slice(start, this.pos));
      return { kind: 'set', set: `\\${neg ? 'P' : 'p'}{${prop}}` };
    }
    if (c.charCodeAt(0) < 0x80 && !isAlnum(c)) return { kind: 'char', cp: c.charCodeAt(0) };
    return bad();
  }

  private charClass(flags: Flags): string {
    const start = this.pos;
    this.pos++;
    let out = '';
    if (this.peek() === '^') { out += '^'; this.pos++; }
    let first = true;
    const missing = (): never => { throw new RE2SyntaxError('missing closing ]', this.src.slice(start)); };
    while (first || this.peek() !== ']') {
      if (this.pos >= this.src.length) missing();
      first = false;
      const itemStart = this.pos;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.src.slice(this.pos));
      if (posix !== null) {
        const set = POSIX[posix[2] ?? ''];
        if (set === undefined) throw new RE2SyntaxError('invalid character class range', posix[0]);
        this.pos += posix[0].length;
        out += posix[1] === '^' ? `\\P{Any}${negatedAscii(set)}` : set;
        continue;
      }
      const lo = this.classChar();
      if (lo.kind === 'set') { out += lo.set; continue; }
      let hi = lo.cp;
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.pos++;
        const h = this.classChar();
        if (h.kind === 'set' || h.cp < lo.cp) throw new RE2SyntaxError('invalid character class range', this.src.slice(itemStart, this.pos));
        hi = h.cp;
      }
      out += classRange(lo.cp, hi, flags.i);
    }
    this.pos++;
    return `[${out}]`;
  }

  private classChar(): { kind: 'char'; cp: number } | { kind: 'set'; set: string } {
    if (this.pos >= this.src.length) throw new RE2SyntaxError('missing closing ]', this.src.slice(this.src.lastIndexOf('[')));
    if (this.peek() === '\\') return this.classEscape();
    const cp = this.src.codePointAt(this.pos) ?? 0;
    this.pos += cp > 0xffff ? 2 : 1;
    return { kind: 'char', cp };
  }
}

/** A negated POSIX class inside a class: JS has no class subtraction outside `v` mode, so the complement is spelled out. */
function negatedAscii(set: string): string {
  const re = new RegExp(`[${set}]`, 'u');
  let out = '';
  for (let cp = 0; cp < 0x80; cp++) if (!re.test(String.fromCodePoint(cp))) out += lit(cp);
  return `${out}\\u{80}-\\u{10ffff}`;
}

function isSupportedProperty(prop: string): boolean {
  try { new RegExp(`\\p{${prop}}`, 'u'); return true; } catch { return false; }
}

/** A literal code point; under (?i) every case variant, as Go's case folding would match. */
function literal(cp: number, flags: Flags): string {
  if (!flags.i) return lit(cp);
  const variants = caseVariants(cp);
  return variants.length === 1 ? lit(cp) : `[${variants.map(lit).join('')}]`;
}

function classRange(lo: number, hi: number, fold: boolean): string {
  const base = lo === hi ? lit(lo) : `${lit(lo)}-${lit(hi)}`;
  if (!fold || hi - lo > 0x400) return base;
  let extra = '';
  for (let cp = lo; cp <= hi; cp++) for (const v of caseVariants(cp)) if (v < lo || v > hi) extra += lit(v);
  return base + extra;
}

function caseVariants(cp: number): number[] {
  const ch = String.fromCodePoint(cp);
  const set = new Set([cp]);
  for (const v of [ch.toLowerCase(), ch.toUpperCase()]) if ([...v].length === 1) set.add(v.codePointAt(0) ?? cp);
  return [...set];
}
