// YAML request bodies, as sigs.k8s.io/yaml converts them: the first document, YAML 1.1 scalars
// (yes/no are booleans; timestamps stay strings), keys turned into strings, duplicate keys
// resolved last-wins. Strict decoding also reports every duplicate key the way go-yaml v2's
// UnmarshalStrict does ("line 4: key \"name\" already set in map").
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { goQuote } from './go-quote.ts';

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

// go-yaml's texts for the yaml package's error codes (an approximation: the two parsers
// detect some malformations at different places).
function goYAMLMessage(code: string, message: string): string {
  switch (code) {
    case 'BLOCK_AS_IMPLICIT_KEY': case 'MULTILINE_IMPLICIT_KEY': return 'mapping values are not allowed in this context';
    case 'TAB_AS_INDENT': return 'found character that cannot start any token';
    case 'MISSING_CHAR': return message.includes('quote') ? 'found unexpected end of stream' : 'did not find expected key';
    case 'BAD_INDENT':
      if (message.startsWith('Flow sequence')) return "did not find expected ',' or ']'";
      if (message.startsWith('Flow map')) return "did not find expected ',' or '}'";
      return 'did not find expected key';
    case 'BAD_ALIAS': case 'ALIAS_PROPS': return 'unknown anchor referenced';
    default: return 'did not find expected key';
  }
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
 * Converts YAML text to a JSON-compatible value. Throws YAMLConversionError for malformed YAML.
 * Duplicate keys are reported only when strict is true.
 */
export function yamlToJSON(text: string, strict: boolean): YAMLConversion {
  const lc = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lc, uniqueKeys: false, version: '1.1', merge: true, prettyErrors: false,
    customTags: (tags) => tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:timestamp'),
  });
  const first = doc.errors[0];
  if (first !== undefined) {
    const line = lc.linePos(first.pos[0]).line;
    throw new YAMLConversionError(`${PREFIX}line ${line}: ${goYAMLMessage(first.code, first.message)}`);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 10000 });
  } catch (err) {
    throw new YAMLConversionError(`${PREFIX}${err instanceof Error ? err.message : String(err)}`);
  }
  if (value === undefined) value = null;
  let duplicateError: string | undefined;
  if (strict) {
    const dups = duplicateKeys(doc, lc);
    if (dups.length > 0) duplicateError = `${PREFIX}unmarshal errors:\n  ${dups.join('\n  ')}`;
  }
  return { value, duplicateError };
}
