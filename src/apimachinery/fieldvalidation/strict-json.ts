// A JSON decoder that behaves like kube's (sigs.k8s.io/json UnmarshalStrict into a Go type):
// one pass that parses, drops fields the target type does not have, and records, in document
// order, `unknown field "a.b[0].c"` and `duplicate field "x"` errors (deduplicated, at most 100).
// Syntax errors carry encoding/json's scanner messages; the first value of the wrong JSON type
// gives encoding/json's UnmarshalTypeError message. Duplicate keys decode as Go does: a
// struct or map is decoded into the existing value (merging), anything else is replaced.
import { newBadRequest } from '../errors/status-error.ts';
import { MAX_DECODE_DEPTH, tooDeepMessage } from '../json-depth.ts';
import { goQuote } from '../goformat/index.ts';
import { JSONSyntaxError, scanJSON, scanLiteral, scanNumber, scanString, syntaxError } from './json-scan.ts';
import { ANY, type Shape } from './shape.ts';

export { JSONSyntaxError };

export interface StrictDecodeResult {
  readonly value: unknown;
  /** Strict errors, e.g. `unknown field "spec.foo"`, in document order. */
  readonly strictErrors: readonly string[];
  /** The first type mismatch (a fatal decoding error in Go), e.g. `json: cannot unmarshal ...`. */
  readonly typeError: string | undefined;
  /** How deep the document nests (objects and arrays; the top level is 1). */
  readonly depth: number;
}

const MAX_STRICT_ERRORS = 100;
// Defined here rather than imported from json-scan.ts: an imported binding measurably slows
// these per-character calls (about 20% of a decode).
const isWS = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
// Values Go skips or hands to an UnmarshalJSON method: parsed, but nothing inside is checked.
const SKIP: Shape = { kind: 'opaque', goName: '' };

function setOwn(obj: Record<string, unknown>, key: string, v: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
  else obj[key] = v;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

// Thrown when the recursive decoder would go deeper than kapi's decoders go (MAX_DECODE_DEPTH).
class TooDeep {}

class Decoder {
  private i = 0;
  private depth = 0;
  private maxDepth = 0;
  private readonly strictStack: string[] = [];
  private readonly strictErrors: string[] = [];
  private readonly seen = new Set<string>();
  private typeError: string | undefined;
  private goStruct = '';
  private readonly goFields: string[] = [];
  // where the last number's text sits, for a type that reads a number as its text (rawNumber)
  private numStart = 0;
  private numEnd = 0;

  constructor(private readonly s: string, private readonly checkStrict: boolean) {}

  decode(shape: Shape): StrictDecodeResult {
    this.ws();
    const value = this.value(shape, undefined);
    this.ws();
    if (this.i < this.s.length) this.fail('after top-level value');
    return { value, strictErrors: this.strictErrors, typeError: this.typeError, depth: this.maxDepth };
  }

  private enter(): void {
    if (++this.depth > MAX_DECODE_DEPTH) throw new TooDeep();
    if (this.depth > this.maxDepth) this.maxDepth = this.depth;
  }

  private fail(context: string): never {
    return syntaxError(this.s, this.i, context);
  }

  private ws(): void {
    const s = this.s;
    while (this.i < s.length && isWS(s.charCodeAt(this.i))) this.i++;
  }

  private strictError(type: 'unknown field' | 'duplicate field', field: string): void {
    if (!this.checkStrict || this.strictErrors.length >= MAX_STRICT_ERRORS) return;
    const path = this.strictStack.length > 0 ? `${this.strictStack.join('')}.${field}` : field;
    const msg = `${type} ${goQuote(path)}`;
    if (this.seen.has(msg)) return;
    this.seen.add(msg);
    this.strictErrors.push(msg);
  }

  private pushKey(key: string): void {
    this.strictStack.push(this.strictStack.length > 0 ? `.${key}` : key);
  }

  private mismatch(what: string, shape: Shape): void {
    if (this.typeError !== undefined) return;
    const where = this.goStruct !== '' || this.goFields.length > 0
      ? `Go struct field ${this.goStruct}.${this.goFields.join('.')}`
      : 'Go value';
    this.typeError = `json: cannot unmarshal ${what} into ${where} of type ${shape.goName}`;
  }

  /** Parses one value at s[i] (whitespace skipped) and leaves i after it. */
  private value(shape: Shape, into: unknown): unknown {
    const v = this.rawValue(shape, into);
    if (shape.kind === 'scalar' && shape.check !== undefined && typeof v === 'string') {
      const error = shape.check(v);
      if (error !== undefined) this.typeError ??= error;
      return v;
    }
    if (shape.kind !== 'opaque' || shape.check === undefined) return v;
    const seen = shape.rawNumber === true && typeof v === 'number' ? this.s.slice(this.numStart, this.numEnd) : v;
    const error = shape.check(seen);
    if (error !== undefined) this.typeError ??= error;
    return error === undefined && shape.canonical !== undefined ? shape.canonical(seen) : v;
  }

  private rawValue(shape: Shape, into: unknown): unknown {
    const s = this.s;
    if (this.i >= s.length) this.fail('looking for beginning of value');
    const c = s.charCodeAt(this.i);
    if (c === 0x7b) { // {
      if (shape.kind === 'struct' || shape.kind === 'map' || shape.kind === 'any') {
        return this.object(shape, shape.kind === 'any' ? undefined : into);
      }
      if (shape.kind !== 'opaque') this.mismatch('object', shape);
      return this.object(SKIP, undefined, true);
    }
    if (c === 0x5b) { // [
      if (shape.kind === 'slice' || shape.kind === 'any') return this.array(shape);
      if (shape.kind !== 'opaque') this.mismatch('array', shape);
      return this.array(SKIP, true);
    }
    if (c === 0x22) {
      const str = this.string();
      if (shape.kind !== 'any' && shape.kind !== 'opaque' && !(shape.kind === 'scalar' && shape.json === 'string')) {
        this.mismatch('string', shape);
      }
      return str;
    }
    if (c === 0x2d || isDigit(c)) {
      const start = this.i;
      const n = this.number();
      this.numStart = start;
      this.numEnd = this.i;
      if (shape.kind === 'scalar' && shape.json === 'integer') {
        const lit = s.slice(start, this.i);
        if (!/^-?\d+$/.test(lit) || !fitsInt(lit, shape.goName)) this.mismatch(`number ${lit}`, shape);
      } else if (shape.kind !== 'any' && shape.kind !== 'opaque' && !(shape.kind === 'scalar' && shape.json === 'number')) {
        this.mismatch('number', shape);
      }
      return n;
    }
    if (c === 0x74) { this.literal('true'); this.checkBool(shape); return true; }
    if (c === 0x66) { this.literal('false'); this.checkBool(shape); return false; }
    if (c === 0x6e) { this.literal('null'); return null; }
    return this.fail('looking for beginning of value');
  }

  private checkBool(shape: Shape): void {
    if (shape.kind !== 'any' && shape.kind !== 'opaque' && !(shape.kind === 'scalar' && shape.json === 'boolean')) {
      this.mismatch('bool', shape);
    }
  }

  private literal(word: string): void {
    this.i = scanLiteral(this.s, this.i, word);
  }

  private number(): number {
    const start = this.i;
    this.i = scanNumber(this.s, start);
    return Number(this.s.slice(start, this.i));
  }

  private string(): string {
    const start = this.i + 1;
    this.i = scanString(this.s, this.i);
    const raw = this.s.slice(start, this.i);
    this.i++;
    return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  private object(shape: Shape, into: unknown, skipChecks = false): Record<string, unknown> {
    const s = this.s;
    const out: Record<string, unknown> = isPlainObject(into) ? into : {};
    const keys = new Set<string>();
    const stackLen = this.strictStack.length;
    this.enter();
    this.i++;
    this.ws();
    if (s.charCodeAt(this.i) === 0x7d) { this.i++; this.depth--; return out; }
    for (;;) {
      if (s.charCodeAt(this.i) !== 0x22) this.fail('looking for beginning of object key string');
      const key = this.string();
      this.ws();
      if (s.charCodeAt(this.i) !== 0x3a) this.fail('after object key');
      this.i++;
      this.ws();
      if (skipChecks) {
        setOwn(out, key, this.value(SKIP, undefined));
      } else if (shape.kind === 'struct') {
        this.structField(shape, out, keys, key);
      } else {
        const dup = keys.has(key);
        if (dup) this.strictError('duplicate field', key);
        keys.add(key);
        this.pushKey(key);
        // A map element is decoded into a fresh value, so a duplicate replaces the earlier one.
        setOwn(out, key, this.value(shape.kind === 'map' ? shape.value() : ANY, undefined));
        this.strictStack.length = stackLen;
      }
      this.ws();
      const c = s.charCodeAt(this.i);
      if (c === 0x2c) { this.i++; this.ws(); continue; }
      if (c === 0x7d) { this.i++; this.depth--; return out; }
      this.fail('after object key:value pair');
    }
  }

  private structField(shape: Extract<Shape, { kind: 'struct' }>, out: Record<string, unknown>, keys: Set<string>, key: string): void {
    const field = shape.fields(key);
    if (field === undefined) {
      if (shape.preserveUnknown) {
        this.pushKey(key);
        setOwn(out, key, this.value(ANY, undefined));
        this.strictStack.length -= 1;
        return;
      }
      this.strictError('unknown field', key);
      this.value(SKIP, undefined);
      return;
    }
    if (keys.has(key)) this.strictError('duplicate field', key);
    keys.add(key);
    const stackLen = this.strictStack.length;
    const savedStruct = this.goStruct;
    this.pushKey(key);
    this.goFields.push(key);
    this.goStruct = shape.goName.slice(shape.goName.indexOf('.') + 1);
    const prev = Object.hasOwn(out, key) ? out[key] : undefined;
    setOwn(out, key, this.value(field, field.kind === 'struct' || field.kind === 'map' ? prev : undefined));
    this.goFields.pop();
    this.goStruct = savedStruct;
    this.strictStack.length = stackLen;
  }

  private array(shape: Shape, skipChecks = false): unknown[] {
    const s = this.s;
    const out: unknown[] = [];
    const stackLen = this.strictStack.length;
    const elem = skipChecks ? SKIP : shape.kind === 'slice' ? shape.elem() : ANY;
    this.enter();
    this.i++;
    this.ws();
    if (s.charCodeAt(this.i) === 0x5d) { this.i++; this.depth--; return out; }
    for (;;) {
      this.strictStack.push(`[${out.length}]`);
      out.push(this.value(elem, undefined));
      this.strictStack.length = stackLen;
      this.ws();
      const c = s.charCodeAt(this.i);
      if (c === 0x2c) { this.i++; this.ws(); continue; }
      if (c === 0x5d) { this.i++; this.depth--; return out; }
      this.fail('after array element');
    }
  }
}

function fitsInt(lit: string, goName: string): boolean {
  const n = BigInt(lit);
  return goName === 'int32' ? n >= -(2n ** 31n) && n < 2n ** 31n : n >= -(2n ** 63n) && n < 2n ** 63n;
}

/**
 * Decodes JSON text into the given shape. Throws JSONSyntaxError with encoding/json's message
 * for malformed input (including "exceeded max depth" beyond 10000 levels), and a StatusError
 * (400 BadRequest) for valid JSON nested deeper than MAX_DECODE_DEPTH (callers check the
 * decoded object against MAX_OBJECT_DEPTH with objectTooDeep). With checkStrict false,
 * no strict errors are collected (fields the shape does not know are still dropped, as Go's
 * decoder does).
 */
export function decodeStrictJSON(text: string, shape: Shape, checkStrict = true): StrictDecodeResult {
  try {
    return new Decoder(text, checkStrict).decode(shape);
  } catch (err) {
    if (!(err instanceof TooDeep)) throw err;
    // Go scans the whole document before decoding: a syntax error anywhere comes first.
    const scan = scanJSON(text);
    if (scan.error !== undefined) throw new JSONSyntaxError(scan.error);
    throw newBadRequest(tooDeepMessage('the object'));
  }
}

/** encoding/json's syntax error message for text, or undefined if text is valid JSON. */
export function jsonSyntaxError(text: string): string | undefined {
  return scanJSON(text).error;
}
