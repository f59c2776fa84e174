// The `fieldPath` of a validation rule (and a CRD's selectable field): a JSON path of property
// and map-key steps (`.a.b`, `['a.b']`, `.labels['k']`) below the schema the rule sits on,
// resolved to the field path its errors name. Array indexes are never valid.
// Counterpart of ValidFieldPath in k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go.
import { FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { JSONSchemaProps } from '../../v1/types.ts';

type Schema = DeepReadonly<JSONSchemaProps>;

export interface ResolvedFieldPath {
  /** The path below the rule's node ("max", "labels[k]"). */
  readonly path: string;
  /** The schema of the field it names. */
  readonly schema: Schema;
}

const ESCAPES: Readonly<Record<string, string>> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

/** The tokens of a path: '.', '[', ']', quoted strings (kept with their quotes) and names between. */
function tokens(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (c === "'") {
      // A quoted string runs to the next quote not preceded by a backslash.
      let j = i + 1;
      while (j < text.length && !(text[j] === "'" && text[j - 1] !== '\\')) j++;
      out.push(text.slice(i, j + 1));
      i = j + 1;
    } else if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i++;
    } else {
      let j = i;
      while (j < text.length && !'.[]'.includes(text[j] ?? '')) j++;
      out.push(text.slice(i, j));
      i = j;
    }
  }
  return out;
}

function unescape(s: string): string {
  return s.replace(/\\(.)/gs, (_m, d: string) => {
    const r = ESCAPES[d];
    if (r === undefined) throw new Error(`invalid escape char \\${d}`);
    return r;
  });
}

/**
 * Resolves `jsonPath` against `schema`, or throws an Error saying why it is not valid
 * ("does not refer to a valid field", "expected [ or . but got: x", ...).
 */
export function validFieldPath(jsonPath: string, schema: Schema, opts: { allowArrayNotation?: boolean } = {}): ResolvedFieldPath {
  let path: FieldPath | undefined;
  let s = schema;
  const step = (name: string): void => {
    if (s.properties !== undefined) {
      const next = Object.hasOwn(s.properties, name) ? s.properties[name] : undefined;
      path = path === undefined ? FieldPath.root(name) : path.child(name);
      if (next === undefined) throw new Error('does not refer to a valid field');
      s = next;
    } else if (typeof s.additionalProperties === 'object') {
      path = (path ?? FieldPath.root('')).key(name);
      s = s.additionalProperties;
    } else {
      throw new Error('does not refer to a valid field');
    }
  };
  const toks = tokens(jsonPath);
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i] ?? '';
    if (tok === '[') {
      if (opts.allowArrayNotation === false) throw new Error('array notation is not allowed');
      const q = toks[++i];
      if (q === undefined) throw new Error('unexpected end of JSON path');
      if (q.length < 2 || !q.startsWith("'") || !q.endsWith("'")) throw new Error(`expected single quoted string but got ${q}`);
      let name: string;
      try { name = unescape(q.slice(1, -1)); } catch (err) { throw new Error(`invalid string literal: ${(err as Error).message}`); }
      step(name);
      const close = toks[++i];
      if (close === undefined) throw new Error('unexpected end of JSON path');
      if (close !== ']') throw new Error(`expected ] but got ${close}`);
    } else if (tok === '.') {
      const name = toks[++i];
      if (name === undefined) throw new Error('unexpected end of JSON path');
      step(name);
    } else {
      throw new Error(`expected [ or . but got: ${tok}`);
    }
  }
  return { path: path?.toString() ?? '', schema: s };
}
