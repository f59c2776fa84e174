// YAML as kube's serializer writes it (sigs.k8s.io/yaml: JSON, then go-yaml v2): keys sorted,
// sequences not indented inside maps, and strings quoted by go-yaml's rules, which resolve plain
// scalars by YAML 1.1: a string that would read back as a bool (yes, on, n, Off...), null, a
// number (0x1F, 1_000, .5, 190:20:30) or a timestamp (2026-01-02, creationTimestamp values) is
// double-quoted; one the emitter cannot write plain ('- x', 'a: b', ' lead') is single-quoted.
import { stringify, type DocumentOptions, type ScalarTag, type SchemaOptions, type Tags, type ToStringOptions } from 'yaml';
import { stringifyString, stringTag } from 'yaml/util';
import { isStackOverflow, stringifyJSON, valueDepth } from '../../json-depth.ts';

const BOOL_OR_NULL = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON',
  'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF',
  '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
]);
/** strconv.ParseInt/ParseUint with base 0, after go-yaml removed underscores. */
const GO_INT = /^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
/** go-yaml's yamlStyleFloat. */
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
/** The layouts go-yaml's parseTimestamp tries (2006-1-2T15:4:5.999999999Z07:00, with t, with a space and no zone, a date). */
const TIMESTAMP = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2}))|(?: (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d{1,9})?))?$/;

function isTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (m === null) return false;
  const [month, day] = [Number(m[2]), Number(m[3])];
  const hour = Number(m[4] ?? m[7] ?? 0);
  const min = Number(m[5] ?? m[8] ?? 0);
  const sec = Number(m[6] ?? m[9] ?? 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && min <= 59 && sec <= 59;
}

/** Whether go-yaml v2 would read `s`, written plain, as anything but a string (resolve + isBase60Float). */
export function goYAMLAmbiguous(s: string): boolean {
  if (BOOL_OR_NULL.has(s)) return true;
  const c = s[0];
  if (c === '.') return YAML_FLOAT.test(s);
  if (c === undefined || !/[-+0-9]/.test(c)) return false;
  if (isTimestamp(s)) return true;
  const plain = s.replaceAll('_', '');
  if (GO_INT.test(plain) || YAML_FLOAT.test(plain)) return true;
  if (/^-?0b[01]+$/.test(plain)) return true;
  return BASE60_FLOAT.test(s);
}

/**
 * What libyaml's emitter does not count as printable (a tab, control characters, U+FEFF, the
 * astral planes): a string holding one is double-quoted with escapes.
 */
const NOT_PRINTABLE = /[^\n\x20-\x7e\u00a0-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;

/** libyaml's best_width. */
const BEST_WIDTH = 80;

/**
 * libyaml's line folding of a one-line plain, single- or double-quoted scalar: past column 80 it
 * breaks at the next single space (never the first or last character of a quoted value), so
 * lines overflow by up to a word, unlike the yaml package's folding, which is turned off.
 */
function foldLikeLibyaml(text: string, startColumn: number, indent: number): string {
  const quote = text[0] === "'" || text[0] === '"' ? text[0] : '';
  const chars = [...text];
  let out = '';
  let column = startColumn;
  let spaces = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? '';
    if (ch !== ' ') {
      out += ch;
      column++;
      spaces = false;
      continue;
    }
    const next = chars[i + 1];
    const edge = quote !== '' && (i === 1 || i === chars.length - 2);
    if (!spaces && column > BEST_WIDTH && !edge && (quote === '"' || next !== ' ')) {
      out += `\n${' '.repeat(indent)}`;
      column = indent;
      // A folded double-quoted line that would start with a space escapes it.
      if (quote === '"' && next === ' ') { out += '\\'; column++; }
    } else {
      out += ch;
      column++;
    }
    spaces = true;
  }
  return out;
}

const ESCAPES: Readonly<Record<number, string>> = {
  0x00: '\\0', 0x07: '\\a', 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0b: '\\v', 0x0c: '\\f', 0x0d: '\\r', 0x1b: '\\e',
  0x22: '\\"', 0x5c: '\\\\', 0x85: '\\N', 0x2028: '\\L', 0x2029: '\\P',
};

/** libyaml's double-quoted scalar: its escapes, hex in upper case, \U for the astral planes. */
function goDoubleQuoted(value: string): string {
  let out = '"';
  for (const ch of value) {
    const cp = ch.codePointAt(0) ?? 0;
    const escape = ESCAPES[cp];
    if (escape !== undefined) out += escape;
    else if (!NOT_PRINTABLE.test(ch) && cp !== 0xfeff) out += ch;
    else if (cp <= 0xff) out += `\\x${cp.toString(16).toUpperCase().padStart(2, '0')}`;
    else if (cp <= 0xffff) out += `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).toUpperCase().padStart(8, '0')}`;
  }
  return `${out}"`;
}


/** The str tag with go-yaml's choice of quotes and libyaml's folding. */
const goString: ScalarTag = {
  ...stringTag,
  stringify(item, ctx, onComment, onChompKeep): string {
    const value = String(item.value);
    const c = { ...ctx, actualString: true };
    let text: string;
    if (NOT_PRINTABLE.test(value) || (goYAMLAmbiguous(value) && !value.includes('\n'))) {
      text = goDoubleQuoted(value);
    } else {
      text = stringifyString(item, c, onComment, onChompKeep);
      // What cannot be plain is single-quoted, a quote doubled, whatever quotes it holds.
      if (text.startsWith('"') || text.startsWith("'")) text = `'${value.replaceAll("'", "''")}'`;
    }
    // Keys, flow collections and block scalars are never folded.
    if (ctx.implicitKey === true || ctx.inFlow === true || text.includes('\n') || text.startsWith('|') || text.startsWith('>')) return text;
    // A map value starts after its key (indentAtStart counts from the key's column, two less
    // than the value's indent); a sequence item at the indent.
    const start = ctx.indentAtStart === undefined ? ctx.indent.length : ctx.indent.length - 2 + ctx.indentAtStart;
    return foldLikeLibyaml(text, start, ctx.indent.length);
  },
};

const OPTIONS: DocumentOptions & SchemaOptions & ToStringOptions = {
  sortMapEntries: true, indentSeq: false, lineWidth: 0,
  customTags: (tags: Tags): Tags => tags.map((t) => (t === stringTag ? goString : t)),
};

// The yaml package recurses several frames per level and overflows the stack at about 600
// levels (where V8 may even abort the process instead of throwing, when it compiles a regular
// expression with the stack nearly used up). Objects deeper than this, half of that, are written
// as JSON, which is a YAML flow document with the same content; shallower ones as go-yaml does.
const YAML_MAX_BLOCK_DEPTH = 300;

/** A YAML document as kube's YAML serializer writes it. */
export function encodeYAML(body: unknown): string {
  if (valueDepth(body, YAML_MAX_BLOCK_DEPTH) > YAML_MAX_BLOCK_DEPTH) return `${stringifyJSON(body)}\n`;
  try {
    return stringify(body, OPTIONS);
  } catch (err) {
    if (!isStackOverflow(err)) throw err;
    return `${stringifyJSON(body)}\n`;
  }
}
