// CEL object construction (`Object{spec: Object.spec{replicas: 3}}`, `JSONPatch{op: "add", …}`),
// which the library's parser does not have, rewritten before parsing into calls it does have:
// `__new_Object({"spec": dyn(__new_Object__spec({"replicas": dyn(3)}))})`. Each field's value is
// wrapped in dyn() because kube's Object fields are all dyn (and map literals must be homogeneous).
// Offsets in the rewritten text map back to the original so compile errors point where kube's do.
// No Go counterpart: cel-go's parser reads object constructions itself.
// Go counterpart: cel-go's CreateStruct (parser) as kube resolves it with mutation.DynamicTypeResolver.
import { formatIssue } from './errors.ts';

const COMPILATION_FAILED = 'compilation failed: ';

interface Token {
  readonly kind: 'id' | 'str' | 'num' | 'punct';
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const STRING_PREFIX = /^(?:[rR][bB]?|[bB][rR]?)$/;
const RESERVED = new Set(['in', 'true', 'false', 'null']);

/** CEL's tokens as far as the rewrite needs them: identifiers, strings, numbers, punctuation; comments dropped. */
function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] ?? '';
    if (/\s/.test(c)) { i++; continue; }
    if (c === '/' && src[i + 1] === '/') { while (i < src.length && src[i] !== '\n') i++; continue; }
    if (c === '"' || c === '\'') { const end = stringEnd(src, i); out.push({ kind: 'str', text: src.slice(i, end), start: i, end }); i = end; continue; }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, i + 256));
    if (id !== null) {
      const end = i + id[0].length;
      if (STRING_PREFIX.test(id[0]) && (src[end] === '"' || src[end] === '\'')) {
        const e = stringEnd(src, end);
        out.push({ kind: 'str', text: src.slice(i, e), start: i, end: e });
        i = e;
      } else {
        out.push({ kind: 'id', text: id[0], start: i, end });
        i = end;
      }
      continue;
    }
    const num = /^(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)[uU]?/.exec(src.slice(i, i + 64));
    if (num !== null) { out.push({ kind: 'num', text: num[0], start: i, end: i + num[0].length }); i += num[0].length; continue; }
    out.push({ kind: 'punct', text: c, start: i, end: i + 1 });
    i++;
  }
  return out;
}

/** The end of the string literal starting at `i` (a quote), triple-quoted or not; the text's end when unterminated. */
function stringEnd(src: string, i: number): number {
  const q = src[i] ?? '';
  const triple = src.startsWith(q.repeat(3), i);
  const close = triple ? q.repeat(3) : q;
  let j = i + close.length;
  while (j < src.length) {
    if (src[j] === '\\') { j += 2; continue; }
    if (src.startsWith(close, j)) return j + close.length;
    if (!triple && src[j] === '\n') return j;
    j++;
  }
  return src.length;
}

/** JSONPatch's fields of type string, checked when compiled (the others are dyn). */
const STRING_FIELDS = new Set(['op', 'path', 'from']);

/** The check function of a JSONPatch string field: `__jsonpatch_field_op(string): string`. */
export const fieldCheckName = (field: string): string => `__jsonpatch_field_${field}`;

/** The function a construction of `typeName` becomes: `Object.spec` → `__new_Object__spec`. */
export const constructorName = (typeName: string): string => `__new_${typeName.replace(/\./g, '__')}`;

/** The type name a constructor function name stands for (for error messages). */
export const typeNameOfConstructor = (fn: string): string => fn.slice('__new_'.length).replace(/__/g, '.');

export interface Rewritten {
  /** The text to compile. */
  readonly source: string;
  /** The type names constructed (`Object`, `Object.spec`, `JSONPatch`…), for the environment. */
  readonly typeNames: readonly string[];
  /** An offset in `source` as an offset in the original expression. */
  toOriginal(offset: number): number;
  /** Each construction's type name and the offset of its brace, in source order. */
  readonly constructions: readonly { readonly name: string; readonly brace: number }[];
}

interface Segment { readonly out: number; readonly orig: number; readonly len: number }

/** Rewrites every object construction in `src`; the text unchanged when there is none. */
export function rewriteObjectConstruction(src: string): Rewritten {
  const tokens = tokenize(src);
  const match = new Map<number, number>();
  const stack: number[] = [];
  tokens.forEach((t, i) => {
    if (t.kind !== 'punct') return;
    if ('([{'.includes(t.text)) stack.push(i);
    else if (')]}'.includes(t.text)) { const o = stack.pop(); if (o !== undefined) match.set(o, i); }
  });
  // A construction: `{` right after a (dotted) identifier that is not an operator keyword.
  const messages = new Map<number, { brace: number; name: string }>();
  tokens.forEach((t, i) => {
    if (t.kind !== 'punct' || t.text !== '{') return;
    let k = i - 1;
    if (tokens[k]?.kind !== 'id' || RESERVED.has(tokens[k]?.text ?? '')) return;
    while (tokens[k - 1]?.text === '.' && tokens[k - 2]?.kind === 'id') k -= 2;
    const name = tokens.slice(k, i).map((x) => x.text).join('');
    if (tokens[k - 1]?.text === '.' && tokens[k - 1]?.kind === 'punct') k--;
    messages.set(k, { brace: i, name });
  });
  if (messages.size === 0) return { source: src, typeNames: [], toOriginal: (o) => o, constructions: [] };

  let out = '';
  const segments: Segment[] = [];
  const copy = (from: number, to: number): void => { segments.push({ out: out.length, orig: from, len: to - from }); out += src.slice(from, to); };
  const synth = (text: string, anchor: number): void => { segments.push({ out: out.length, orig: anchor, len: 0 }); out += text; };
  const names = new Set<string>();
  const gapBefore = (k: number): void => { const prev = tokens[k - 1]; const t = tokens[k]; if (t !== undefined) copy(prev === undefined ? 0 : prev.end, t.start); };

  const emit = (a: number, b: number): void => {
    let k = a;
    while (k < b) {
      const m = messages.get(k);
      // An unclosed construction runs to the end (the syntax error is then at the end, as cel-go's).
      const close = m === undefined ? undefined : match.get(m.brace) ?? tokens.length;
      if (m !== undefined && close !== undefined && emitMessage(k, m.brace, close, m.name)) { k = close + 1; continue; }
      gapBefore(k);
      const t = tokens[k];
      if (t !== undefined) copy(t.start, t.end);
      k++;
    }
  };

  /** `Name{f: v, ?g: w}` → `__new_Name({"f": dyn(v), "?g": dyn(w)})`; false (left as is) when the fields do not parse. */
  const emitMessage = (start: number, brace: number, close: number, name: string): boolean => {
    const fields: { name: string; optional: boolean; from: number; to: number }[] = [];
    let k = brace + 1;
    while (k < close) {
      const optional = tokens[k]?.text === '?';
      if (optional) k++;
      const id = tokens[k];
      if (id?.kind !== 'id' || tokens[k + 1]?.text !== ':') return false;
      const from = k + 2;
      let to = from;
      while (to < close && tokens[to]?.text !== ',') to = (match.get(to) ?? to) + 1;
      fields.push({ name: id.text, optional, from, to });
      k = to + 1;
    }
    gapBefore(start);
    const anchor = tokens[start]?.start ?? 0;
    names.add(name.replace(/^\./, ''));
    synth(constructorName(name.replace(/^\./, '')), anchor);
    // cel-go locates the construction at its brace: the call's parenthesis maps there.
    synth('({', tokens[brace]?.start ?? anchor);
    const jsonPatch = name.replace(/^\./, '') === 'JSONPatch';
    fields.forEach((f, i) => {
      const at = tokens[f.from]?.start ?? anchor;
      if (jsonPatch && STRING_FIELDS.has(f.name) && !f.optional) {
        // Typed by a check function whose call error (located at the colon, as cel-go's) is reworded.
        synth(`${i > 0 ? ', ' : ''}"${f.name}": ${fieldCheckName(f.name)}`, at);
        synth('(', tokens[f.from - 1]?.start ?? at);
      } else {
        synth(`${i > 0 ? ', ' : ''}"${f.optional ? '?' : ''}${f.name}": dyn(`, at);
      }
      emit(f.from, f.to);
      if (f.to < tokens.length) synth(')', tokens[f.to - 1]?.end ?? anchor);
    });
    if (close < tokens.length) synth('})', tokens[close]?.start ?? anchor);
    return true;
  };

  emit(0, tokens.length);
  if (tokens.length > 0) copy(tokens[tokens.length - 1]?.end ?? src.length, src.length);
  const toOriginal = (o: number): number => {
    let seg: Segment | undefined;
    for (const s of segments) { if (s.out <= o) seg = s; else break; }
    return seg === undefined ? o : seg.orig + Math.min(o - seg.out, seg.len);
  };
  const constructions = [...messages.values()].map((m) => ({ name: m.name.replace(/^\./, ''), brace: tokens[m.brace]?.start ?? 0 }))
    .sort((a, b) => a.brace - b.brace);
  return { source: out, typeNames: [...names], toOriginal, constructions };
}

/** Re-points cel-go style issues (`ERROR: <input>:L:C: msg` + source line + caret) at the original text. */
export function remapIssues(detail: string, rewritten: string, original: string, toOriginal: (o: number) => number): string {
  const lineStarts = [0];
  for (let i = 0; i < rewritten.length; i++) if (rewritten[i] === '\n') lineStarts.push(i + 1);
  const body = detail.startsWith(COMPILATION_FAILED) ? detail.slice(COMPILATION_FAILED.length) : detail;
  const issues = [...body.matchAll(/ERROR: <input>:(\d+):(\d+): ([^\n]*)\n \| [^\n]*\n \| \.*\^/g)];
  if (issues.length === 0) return detail;
  const out = issues.map((m) => {
    const offset = (lineStarts[Number(m[1]) - 1] ?? 0) + Number(m[2]) - 1;
    const message = (m[3] ?? '')
      .replace(/^found no matching overload for '__jsonpatch_field_(\w+)' applied to '\((.*)\)'$/, "expected type of field '$1' is 'string' but provided type is '$2'")
      .replace(/__new_[A-Za-z0-9_]+/g, (fn) => typeNameOfConstructor(fn));
    return formatIssue(original, toOriginal(offset), message);
  });
  return (detail.startsWith(COMPILATION_FAILED) ? COMPILATION_FAILED : '') + out.join('\n');
}

