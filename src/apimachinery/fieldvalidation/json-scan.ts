// encoding/json's validity check (checkValid) without recursion: one pass over the text with an
// explicit stack of open containers, so that any depth is scanned. Reports the first error with
// the scanner's message, including "exceeded max depth" for the 10001st open container, and the
// document's nesting depth. The token scanners (strings, numbers, literals) are shared with the
// strict decoder (strict-json.ts).
import { GO_JSON_MAX_DEPTH } from '../json-depth.ts';
import { firstUtf8Byte, quoteChar } from '../goformat/index.ts';

export interface JSONScan {
  /** encoding/json's SyntaxError text, or undefined for valid JSON. */
  readonly error: string | undefined;
  /** The deepest nesting of objects and arrays seen (up to the error, if any). */
  readonly depth: number;
}

/** encoding/json's SyntaxError: the scanner's message for malformed JSON text. */
export class JSONSyntaxError extends Error {
  override readonly name = 'JSONSyntaxError';
}

const isWS = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

// Plain functions of (text, index) that return where the token ends, so that the scanner and
// the strict decoder share them without sharing a class.

/** Throws the scanner's error for the character at s[i] (or the end of input) in `context`. */
export function syntaxError(s: string, i: number, context: string): never {
  if (i >= s.length) throw new JSONSyntaxError('unexpected end of JSON input');
  throw new JSONSyntaxError(`invalid character ${quoteChar(firstUtf8Byte(s, i))} ${context}`);
}

/** Checks the literal `word` whose first character is at s[i]; returns the index after it. */
export function scanLiteral(s: string, i: number, word: string): number {
  i++;
  for (let k = 1; k < word.length; k++, i++) {
    if (i >= s.length) syntaxError(s, i, '');
    if (s.charCodeAt(i) !== word.charCodeAt(k)) syntaxError(s, i, `in literal ${word} (expecting '${word[k] ?? ''}')`);
  }
  return i;
}

/** Checks the number literal starting at s[i] ('-' or a digit); returns the index after it. */
export function scanNumber(s: string, i: number): number {
  if (s.charCodeAt(i) === 0x2d) {
    i++;
    if (i >= s.length || !isDigit(s.charCodeAt(i))) syntaxError(s, i, 'in numeric literal');
  }
  if (s.charCodeAt(i) === 0x30) i++;
  else while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  if (i < s.length && s.charCodeAt(i) === 0x2e) {
    i++;
    if (i >= s.length || !isDigit(s.charCodeAt(i))) syntaxError(s, i, 'after decimal point in numeric literal');
    while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  }
  const e = s.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = s.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (i >= s.length || !isDigit(s.charCodeAt(i))) syntaxError(s, i, 'in exponent of numeric literal');
    while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  }
  return i;
}

/** Checks the string literal whose opening quote is at s[i]; returns the index of its closing quote. */
export function scanString(s: string, i: number): number {
  i++;
  for (;;) {
    if (i >= s.length) syntaxError(s, i, '');
    const c = s.charCodeAt(i);
    if (c === 0x22) return i;
    if (c < 0x20) syntaxError(s, i, 'in string literal');
    if (c === 0x5c) {
      i++;
      if (i >= s.length) syntaxError(s, i, '');
      const e = s.charCodeAt(i);
      if (e === 0x75) {
        for (let k = 0; k < 4; k++) {
          i++;
          if (i >= s.length) syntaxError(s, i, '');
          if (!isHex(s.charCodeAt(i))) syntaxError(s, i, 'in \\u hexadecimal character escape');
        }
      } else if ('"\\/bfnrt'.indexOf(s[i] ?? '') < 0) {
        syntaxError(s, i, 'in string escape code');
      }
    }
    i++;
  }
}

class Scanner {
  private i = 0;
  private depth = 0;
  // 1: inside an object, 0: inside an array.
  private readonly stack: number[] = [];

  constructor(private readonly s: string, private readonly maxDepth: number) {}

  run(): JSONScan {
    try {
      this.document();
      return { error: undefined, depth: this.depth };
    } catch (err) {
      if (err instanceof JSONSyntaxError) return { error: err.message, depth: this.depth };
      throw err;
    }
  }

  private fail(context: string): never {
    return syntaxError(this.s, this.i, context);
  }

  private ws(): void {
    while (this.i < this.s.length && isWS(this.s.charCodeAt(this.i))) this.i++;
  }

  private push(kind: number): void {
    this.stack.push(kind);
    if (this.stack.length > this.maxDepth) this.fail('exceeded max depth');
    if (this.stack.length > this.depth) this.depth = this.stack.length;
    this.i++;
    this.ws();
  }

  /** Reads `"key"` and `:` and leaves i at the member's value. */
  private key(): void {
    if (this.s.charCodeAt(this.i) !== 0x22) this.fail('looking for beginning of object key string');
    this.i = scanString(this.s, this.i) + 1;
    this.ws();
    if (this.s.charCodeAt(this.i) !== 0x3a) this.fail('after object key');
    this.i++;
    this.ws();
  }

  private document(): void {
    const s = this.s;
    this.ws();
    for (;;) {
      // A value starts at i.
      if (this.i >= s.length) this.fail('looking for beginning of value');
      const c = s.charCodeAt(this.i);
      if (c === 0x7b) {
        this.push(1);
        if (s.charCodeAt(this.i) === 0x7d) { this.i++; this.stack.pop(); } else { this.key(); continue; }
      } else if (c === 0x5b) {
        this.push(0);
        if (s.charCodeAt(this.i) === 0x5d) { this.i++; this.stack.pop(); } else continue;
      } else if (c === 0x22) this.i = scanString(s, this.i) + 1;
      else if (c === 0x2d || isDigit(c)) this.i = scanNumber(s, this.i);
      else if (c === 0x74) this.i = scanLiteral(s, this.i, 'true');
      else if (c === 0x66) this.i = scanLiteral(s, this.i, 'false');
      else if (c === 0x6e) this.i = scanLiteral(s, this.i, 'null');
      else this.fail('looking for beginning of value');
      // After a value: close containers until one continues with another element.
      for (;;) {
        this.ws();
        const top = this.stack[this.stack.length - 1];
        if (top === undefined) {
          if (this.i < s.length) this.fail('after top-level value');
          return;
        }
        const d = s.charCodeAt(this.i);
        if (d === 0x2c) {
          this.i++;
          this.ws();
          if (top === 1) this.key();
          break;
        }
        if (d === (top === 1 ? 0x7d : 0x5d)) { this.i++; this.stack.pop(); continue; }
        this.fail(top === 1 ? 'after object key:value pair' : 'after array element');
      }
    }
  }
}

/** Scans JSON text as encoding/json's checkValid does, with its nesting limit of 10000 by default. */
export function scanJSON(text: string, maxDepth = GO_JSON_MAX_DEPTH): JSONScan {
  return new Scanner(text, maxDepth).run();
}
