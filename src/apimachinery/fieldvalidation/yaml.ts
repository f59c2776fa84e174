// YAML request bodies, as sigs.k8s.io/yaml converts them: the first document, YAML 1.1 scalars
// (yes/no are booleans; timestamps stay strings), keys turned into strings, duplicate keys
// resolved last-wins. Strict decoding also reports every duplicate key the way go-yaml v2's
// UnmarshalStrict does ("line 4: key \"name\" already set in map").
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { newBadRequest } from '../errors/status-error.ts';
import { isStackOverflow, MAX_DECODE_DEPTH, objectTooDeep, tooDeepMessage } from '../json-depth.ts';
import { goQuote } from '../goformat/index.ts';
import { yamlNestingBound } from './yaml-depth.ts';

/** The YAML→JSON conversion failed; message is go-yaml's ("yaml: line 1: ..."). */
export class YAMLConversionError extends Error {
  override readonly name = 'YAMLConversionError';
}

export interface YAMLConversion {
  readonly value: unknown;
  /** The strict error for duplicate keys, or undefined when there are none. */
  readonly duplicateError: string | undefined;
}

// sigs.k8s.io/yaml's YAMLToJSON returns go-yaml's errors unwrapped.
const PREFIX = 'yaml: ';

// go-yaml v2 (decode.go parser.fail) numbers lines from its marks, which are 0-based: a parser
// error says "line N" with N the 0-based line of the offending token, a scanner error adds one
// to the scanner's 0-based line; when that line is 0 there is no "line N: " at all. The yaml
// package detects the same malformations at other places and with other words, so each of its
// error codes is mapped to what go-yaml reports for the usual cases.

const parserError = (message: string, line0: number): string => (line0 !== 0 ? `line ${line0}: ${message}` : message);
const scannerError = (message: string, line0: number): string => (line0 !== 0 ? `line ${line0 + 1}: ${message}` : message);

/** 0-based line of an offset (go-yaml counts "\n", "\r\n" and "\r" as one break each). */
function line0Of(text: string, offset: number): number {
  const m = text.slice(0, offset).match(/\r\n|\r|\n/g);
  return m === null ? 0 : m.length;
}

const lineStart = (text: string, offset: number): number => Math.max(text.lastIndexOf('\n', offset - 1) + 1, 0);

/** The ':' (followed by a blank or the end) that makes a mapping value, at or after offset. */
function valueIndicator(text: string, offset: number): number {
  for (let i = offset; i < text.length; i++) {
    if (text[i] === ':' && (i + 1 === text.length || ' \t\r\n'.includes(text[i + 1] ?? ''))) return i;
  }
  return text.length;
}

/** Offset of the first token on a line after offset's line (blank and comment lines skipped), or the end. */
function nextLineToken(text: string, offset: number): number {
  let i = text.indexOf('\n', offset);
  while (i !== -1) {
    const m = /^[ \t]*(?=[^ \t\r\n#])/.exec(text.slice(i + 1));
    if (m !== null && i + 1 + m[0].length < text.length) return i + 1 + m[0].length;
    i = text.indexOf('\n', i + 1);
  }
  return text.length;
}

/**
 * True when the block collection a token at this offset's column would continue is a sequence:
 * the nearest line above indented exactly as much starts with "- ", and no line in between is
 * indented less (go-yaml then wants a '-' indicator, not a key).
 */
function continuesSequence(text: string, offset: number): boolean {
  const start = lineStart(text, offset);
  // The yaml package may point at the start of the line: the token is its first non-blank.
  const col = Math.max(offset - start, /^ */.exec(text.slice(start))?.[0].length ?? 0);
  const above = text.slice(0, start).split(/\r?\n/).reverse();
  for (const l of above) {
    if (/^\s*(#.*)?$/.test(l)) continue;
    const indent = /^ */.exec(l)?.[0].length ?? 0;
    if (indent < col) return false;
    if (indent === col) return /^-( |$)/.test(l.slice(indent));
  }
  return false;
}

/**
 * go-yaml's 0-based line of the stream's end: the STREAM-END token starts a new line unless the
 * text already ends with a line break.
 */
function streamEndLine0(text: string): number {
  const n = line0Of(text, text.length);
  return text === '' || /[\r\n]$/.test(text) ? n : n + 1;
}

/** The last character of the text that is not blank or in a comment. */
function lastSignificant(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  while (lines.length > 0 && /^\s*(#.*)?$/.test(lines[lines.length - 1] ?? '')) lines.pop();
  return (lines[lines.length - 1] ?? '').replace(/\s+#.*$/, '').trimEnd().slice(-1);
}

/**
 * The stream ends inside a flow collection: after '[', '{' or ',' go-yaml's parser wanted a node,
 * else the collection's ',' or closing bracket; either way at the stream end's line.
 */
function unterminatedFlow(message: string, text: string): string {
  const wantsNode = ['[', '{', ','].includes(lastSignificant(text));
  const closing = message.startsWith('Flow sequence') ? "',' or ']'" : "',' or '}'";
  return parserError(wantsNode ? 'did not find expected node content' : `did not find expected ${closing}`, streamEndLine0(text));
}

/** go-yaml's text for the first error the yaml package found. */
function goYAMLError(code: string, message: string, offset: number, text: string): string {
  const at = line0Of(text, offset);
  if ((code === 'BAD_INDENT' || code === 'MISSING_CHAR') && offset >= text.length && /^Flow (sequence|map)/.test(message)) {
    return unterminatedFlow(message, text);
  }
  switch (code) {
    case 'BAD_INDENT':
      if (message.startsWith('Flow sequence')) return parserError("did not find expected ',' or ']'", at);
      if (message.startsWith('Flow map')) return parserError("did not find expected ',' or '}'", at);
      return expectedKey(text, offset, at);
    case 'BLOCK_AS_IMPLICIT_KEY':
      // "a: b: c": the scanner stops at the second ':'. A block sequence as a key: the parser at the '-'.
      if (message.startsWith('Nested mappings')) {
        return scannerError('mapping values are not allowed in this context', line0Of(text, valueIndicator(text, offset)));
      }
      return expectedKey(text, offset, at);
    case 'MULTILINE_IMPLICIT_KEY':
      return expectedKey(text, offset, at);
    case 'TAB_AS_INDENT': return scannerError('found a tab character that violates indentation', at);
    case 'BAD_DQ_ESCAPE': return scannerError('found unknown escape character', at);
    case 'BAD_SCALAR_START': return scannerError('found character that cannot start any token', at);
    case 'MISSING_CHAR':
      if (message.includes('quote')) return scannerError('found unexpected end of stream', at);
      if (message.startsWith('Flow sequence')) return parserError("did not find expected ',' or ']'", at);
      if (message.startsWith('Flow map')) return parserError("did not find expected ',' or '}'", at);
      // A plain scalar where a key must be: the scanner gives up at the next token.
      if (message.startsWith('Implicit map keys')) return scannerError("could not find expected ':'", line0Of(text, nextLineToken(text, offset)));
      return expectedKey(text, offset, at);
    default:
      return expectedKey(text, offset, at);
  }
}

/** The parser's complaint about a token that is no key (or no '-' entry, inside a block sequence). */
function expectedKey(text: string, offset: number, at: number): string {
  return parserError(continuesSequence(text, offset) ? "did not find expected '-' indicator" : 'did not find expected key', at);
}

function keyText(v: unknown): string {
  return typeof v === 'string' ? goQuote(v) : String(v);
}

function duplicateKeys(doc: Document, lc: LineCounter): string[] {
  const found: string[] = [];
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<string>();
      for (const item of map.items) {
        if (!isPair(item)) continue;
        const k: unknown = isScalar(item.key) ? item.key.value : item.key;
        if (k === '<<') continue; // merge keys may repeat
        const id = typeof k === 'object' && k !== null ? JSON.stringify(k) : `${typeof k}:${String(k)}`;
        if (seen.has(id)) {
          // go-yaml reports the line of the value node (n.line of the pair's value).
          const node = isScalar(item.value) || isMap(item.value) || isSeq(item.value) ? item.value : item.key;
          const offset = isScalar(node) || isMap(node) || isSeq(node) ? (node.range?.[0] ?? 0) : 0;
          found.push(`line ${lc.linePos(offset).line}: key ${keyText(k)} already set in map`);
        }
        seen.add(id);
      }
    },
  });
  return found;
}

/**
 * Converts YAML text to a JSON-compatible value. Throws YAMLConversionError for malformed YAML,
 * and a StatusError (400 BadRequest) for a document nested deeper than kapi stores (the
 * yaml package recurses, so such a document is refused before anything else walks it).
 * Duplicate keys are reported only when strict is true.
 */
export function yamlToJSON(text: string, strict: boolean): YAMLConversion {
  if (yamlNestingBound(text) > MAX_DECODE_DEPTH) throw newBadRequest(tooDeepMessage('the object'));
  try {
    return convert(text, strict);
  } catch (err) {
    if (isStackOverflow(err)) throw newBadRequest(tooDeepMessage('the object'));
    throw err;
  }
}

function convert(text: string, strict: boolean): YAMLConversion {
  const lc = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lc, uniqueKeys: false, version: '1.1', merge: true, prettyErrors: false,
    customTags: (tags) => tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:timestamp'),
  });
  const first = doc.errors[0];
  if (first !== undefined) throw new YAMLConversionError(`${PREFIX}${goYAMLError(first.code, first.message, first.pos[0], text)}`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 10000 });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    const alias = /^Unresolved alias \(the anchor must be set before the alias\): (.*)$/.exec(msg);
    throw new YAMLConversionError(`${PREFIX}${alias !== null ? `unknown anchor '${alias[1] ?? ''}' referenced` : msg}`);
  }
  if (value === undefined) value = null;
  if (objectTooDeep(value)) throw newBadRequest(tooDeepMessage('the object'));
  let duplicateError: string | undefined;
  if (strict) {
    const dups = duplicateKeys(doc, lc);
    if (dups.length > 0) duplicateError = `${PREFIX}unmarshal errors:\n  ${dups.join('\n  ')}`;
  }
  return { value, duplicateError };
}
