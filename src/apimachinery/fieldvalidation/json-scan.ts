// encoding/json's validity check (checkValid) without recursion: one pass over the text with an
// explicit stack of open containers, so that any depth is scanned. Reports the first error with
// the scanner's message, including "exceeded max depth" for the 10001st open container, and the
// document's nesting depth.
import { GO_JSON_MAX_DEPTH } from '../json-depth.ts';
import { firstUtf8Byte, quoteChar } from './go-quote.ts';

export interface JSONScan {
  /** encoding/json's SyntaxError text, or undefined for valid JSON. */
  readonly error: string | undefined;
  /** The deepest nesting of objects and arrays seen (up to the error, if any). */
  readonly depth: number;
}

const isWS = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

class Failure {
  constructor(readonly message: string) {}
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
      if (err instanceof Failure) return { error: err.message, depth: this.depth };
      throw err;
    }
  }

  private fail(context: string): never {
    if (this.i >= this.s.length) throw new Failure('unexpected end of JSON input');
    throw new Failure(`invalid character ${quoteChar(firstUtf8Byte(this.s, this.i))} ${context}`);
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
    this.string();
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
      } else if (c === 0x22) this.string();
      else if (c === 0x2d || isDigit(c)) this.number();
      else if (c === 0x74) this.literal('true');
      else if (c === 0x66) this.literal('false');
      else if (c === 0x6e) this.literal('null');
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

  private literal(word: string): void {
    const s = this.s;
    this.i++;
    for (let k = 1; k < word.length; k++, this.i++) {
      if (this.i >= s.length) this.fail('');
      if (s.charCodeAt(this.i) !== word.charCodeAt(k)) this.fail(`in literal ${word} (expecting '${word[k] ?? ''}')`);
    }
  }

  private number(): void {
    const s = this.s;
    if (s.charCodeAt(this.i) === 0x2d) {
      this.i++;
      if (this.i >= s.length || !isDigit(s.charCodeAt(this.i))) this.fail('in numeric literal');
    }
    if (s.charCodeAt(this.i) === 0x30) this.i++;
    else while (this.i < s.length && isDigit(s.charCodeAt(this.i))) this.i++;
    if (this.i < s.length && s.charCodeAt(this.i) === 0x2e) {
      this.i++;
      if (this.i >= s.length || !isDigit(s.charCodeAt(this.i))) this.fail('after decimal point in numeric literal');
      while (this.i < s.length && isDigit(s.charCodeAt(this.i))) this.i++;
    }
    const e = s.charCodeAt(this.i);
    if (e === 0x65 || e === 0x45) {
      this.i++;
      const sign = s.charCodeAt(this.i);
      if (sign === 0x2b || sign === 0x2d) this.i++;
      if (this.i >= s.length || !isDigit(s.charCodeAt(this.i))) this.fail('in exponent of numeric literal');
      while (this.i < s.length && isDigit(s.charCodeAt(this.i))) this.i++;
    }
  }

  private string(): void {
    const s = this.s;
    this.i++;
    for (;;) {
      if (this.i >= s.length) this.fail('');
      const c = s.charCodeAt(this.i);
      if (c === 0x22) break;
      if (c < 0x20) this.fail('in string literal');
      if (c === 0x5c) {
        this.i++;
        if (this.i >= s.length) this.fail('');
        const e = s.charCodeAt(this.i);
        if (e === 0x75) {
          for (let k = 0; k < 4; k++) {
            this.i++;
            if (this.i >= s.length) this.fail('');
            if (!isHex(s.charCodeAt(this.i))) this.fail('in \\u hexadecimal character escape');
          }
        } else if ('"\\/bfnrt'.indexOf(s[this.i] ?? '') < 0) {
          this.fail('in string escape code');
        }
      }
      this.i++;
    }
    this.i++;
  }
}

/** Scans JSON text as encoding/json's checkValid does, with its nesting limit of 10000 by default. */
export function scanJSON(text: string, maxDepth = GO_JSON_MAX_DEPTH): JSONScan {
  return new Scanner(text, maxDepth).run();
}
