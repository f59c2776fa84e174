// cel-go's `string.format(list)` and `strings.quote(string)` (strings extension v1+), with cel-go's
// clause semantics (%s %d %f %e %b %x %X %o %%, precision `.N`) and error texts.
// Go counterpart: github.com/google/cel-go/ext/formatting.go, strings.go (quote).
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { CelObject } from '../values.ts';
import { CelRuntimeError, fail } from './util.ts';

type Clause = (v: unknown) => string;

/** A formatting error and the argument it is about (for compile-time checks of literal arguments). */
export class FormatError extends CelRuntimeError {
  constructor(message: string, readonly argIndex: number | undefined) { super(message); }
}

/** The CEL type name of a runtime value, as cel-go prints it in format errors. */
function typeName(v: unknown): string {
  if (v === null) return 'null_type';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof UnsignedInt) return 'uint';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Date) return 'google.protobuf.Timestamp';
  if (v instanceof Duration) return 'google.protobuf.Duration';
  if (Array.isArray(v) || v instanceof Set) return 'list';
  if (v instanceof Map) return 'map';
  if (v instanceof CelObject) return v.constructor.name;
  return 'dyn';
}

const goQuote = (s: string): string => JSON.stringify(s);

/** CEL's string() of a double: Go's strconv.FormatFloat(f, 'g', -1, 64)-like shortest form. */
function doubleString(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  const abs = Math.abs(f);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e21)) return f.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return String(f);
}

/** CEL's string(duration): seconds with the fraction cel-go prints (`90s`, `1.5s`). */
export const durationString = (d: Duration): string => {
  const total = Number(d.seconds) + d.nanos / 1e9;
  return `${total}s`;
};

/** CEL's string(timestamp): RFC 3339 in UTC. */
export const timestampString = (t: Date): string => t.toISOString().replace('.000Z', 'Z');

function plainString(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'string') return String(v);
  if (typeof v === 'number') return doubleString(v);
  if (v instanceof UnsignedInt) return String(v.valueOf());
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (v instanceof Date) return timestampString(v);
  if (v instanceof Duration) return durationString(v);
  if (Array.isArray(v) || v instanceof Set) return formatList([...v]);
  if (v instanceof Map) return formatMap(v);
  if (typeof v === 'object' && v.constructor === Object) return formatMap(new Map(Object.entries(v)));
  return fail(`error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${typeName(v)}`);
}

/** A member of a list or map as a CEL literal. */
function literal(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  if (v instanceof Uint8Array) return `b${goQuote(Buffer.from(v).toString('utf8'))}`;
  if (typeof v === 'number') return Number.isFinite(v) ? v.toFixed(6) : goQuote(doubleString(v));
  if (v instanceof Date) return `timestamp(${goQuote(timestampString(v))})`;
  if (v instanceof Duration) return `duration(${goQuote(durationString(v))})`;
  return plainString(v);
}

const formatList = (l: unknown[]): string => `[${l.map(literal).join(', ')}]`;

function formatMap(m: Map<unknown, unknown>): string {
  const pairs = [...m].map(([k, v]) => {
    if (typeof k !== 'string' && typeof k !== 'boolean' && typeof k !== 'bigint' && !(k instanceof UnsignedInt)) {
      fail(`no formatting function for map key of type ${typeName(k)}`);
    }
    return [typeof k === 'string' ? goQuote(k) : String(k), literal(v)] as const;
  });
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `{${pairs.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
}

const formatErr = (msg: string): never => fail(`error during formatting: ${msg}`);

function integer(v: unknown, clause: string, radix: number, upper = false): string {
  if (typeof v === 'bigint' || v instanceof UnsignedInt) {
    const n = typeof v === 'bigint' ? v : v.valueOf();
    const s = (n < 0n ? '-' : '') + (n < 0n ? -n : n).toString(radix);
    return upper ? s.toUpperCase() : s;
  }
  if (radix === 2 && typeof v === 'boolean') return v ? '1' : '0';
  if (radix === 16 && (typeof v === 'string' || v instanceof Uint8Array)) {
    const hex = Buffer.from(typeof v === 'string' ? Buffer.from(v, 'utf8') : v).toString('hex');
    return upper ? hex.toUpperCase() : hex;
  }
  return formatErr(`${clause}, was given ${typeName(v)}`);
}

function floating(v: unknown, precision: number, kind: 'f' | 'e'): string {
  const special = typeof v === 'string' && ['NaN', 'Infinity', '-Infinity'].includes(v);
  if (typeof v !== 'number' && !special) {
    return formatErr(`${kind === 'f' ? 'fixed-point' : 'scientific'} clause can only be used on doubles, was given ${typeName(v)}`);
  }
  const f = typeof v === 'number' ? v : Number(v);
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (kind === 'f') return f.toFixed(precision);
  // kube formats through a locale printer (golang.org/x/text/message): 1.234568×10⁰³
  const [mant = '', exp = '0'] = f.toExponential(precision).split('e');
  const digits = String(Math.abs(Number(exp))).padStart(2, '0');
  return `${mant}×10${Number(exp) < 0 ? '⁻' : ''}${[...digits].map((d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[Number(d)]).join('')}`;
}

function clause(c: string, precision: number | undefined): Clause | undefined {
  switch (c) {
    case 's': return plainString;
    case 'd': return (v) => integer(v, 'decimal clause can only be used on integers', 10);
    case 'f': return (v) => floating(v, precision ?? 6, 'f');
    case 'e': return (v) => floating(v, precision ?? 6, 'e');
    case 'b': return (v) => integer(v, 'only integers and bools can be formatted as binary', 2);
    case 'x': return (v) => integer(v, 'only integers, byte buffers, and strings can be formatted as hex', 16);
    case 'X': return (v) => integer(v, 'only integers, byte buffers, and strings can be formatted as hex', 16, true);
    case 'o': return (v) => integer(v, 'octal clause can only be used on integers', 8);
    default: return undefined;
  }
}

/** `format.format(args)` as cel-go's strings extension evaluates it. */
export function formatString(format: string, args: readonly unknown[]): string {
  let out = '';
  let argIndex = 0;
  for (let i = 0; i < format.length;) {
    if (format[i] !== '%') { out += format[i]; i++; continue; }
    if (format[i + 1] === '%') { out += '%'; i += 2; continue; }
    if (argIndex >= args.length) fail(`index ${argIndex} out of range`);
    if (i + 1 >= format.length) fail('unexpected end of string');
    let j = i + 1;
    let precision: number | undefined;
    if (format[j] === '.') {
      const m = /^\.(\d*)/.exec(format.slice(j))!;
      if (j + m[0].length >= format.length) fail('could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
      precision = m[1] === '' ? 0 : Number(m[1]);
      j += m[0].length;
    }
    const c = format[j] ?? '';
    const fn = clause(c, precision);
    if (fn === undefined) fail(`could not parse formatting clause: unrecognized formatting clause "${c}"`);
    try {
      out += fn(args[argIndex]);
    } catch (err) {
      throw new FormatError((err as Error).message, argIndex);
    }
    argIndex++;
    i = j + 1;
  }
  return out;
}

/** `strings.quote(s)`: s in double quotes with cel-go's escapes. */
export function quote(s: string): string {
  const esc: Readonly<Record<string, string>> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' };
  return `"${s.replace(/[\x07\b\f\n\r\t\v\\"]/g, (c) => esc[c] ?? c).replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')}"`;
}
