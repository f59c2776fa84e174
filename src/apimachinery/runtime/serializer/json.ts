// JSON as kube's serializer writes it on the wire (runtime/serializer/json): Go's encoding/json
// escapes the HTML characters <, > and & and the separators U+2028 and U+2029 in every string;
// the compact form is json.Encoder.Encode's (one trailing newline), the pretty form
// json.MarshalIndent's (two-space indent, no trailing newline), which kube writes for ?pretty=true
// and for curl, Wget and browsers, and for the documents it writes raw (WriteRawJSON: /version,
// the path index).
import { stringifyJSON } from '../../json-depth.ts';

const GO_ESCAPED = /[<>&\u2028\u2029]/g;
const GO_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029',
};

/**
 * Go's escaping of JSON text that JSON.stringify wrote. These characters only ever occur inside
 * strings, so replacing them in the whole text is exact.
 */
export function goEscapeJSON(text: string): string {
  GO_ESCAPED.lastIndex = 0;
  return GO_ESCAPED.test(text) ? text.replace(GO_ESCAPED, (c) => GO_ESCAPES[c] ?? c) : text;
}

/** json.Encoder.Encode: compact, Go-escaped, newline-terminated. */
export function encodeJSON(value: unknown): string {
  return `${goEscapeJSON(stringifyJSON(value))}\n`;
}

/** json.MarshalIndent(value, "", "  "): Go-escaped, indented, no trailing newline. */
export function encodePrettyJSON(value: unknown): string {
  return indentJSON(goEscapeJSON(stringifyJSON(value)));
}

/**
 * json.Indent of compact JSON with a two-space indent: one member or element per line, "key":
 * value with one space, `{}` and `[]` kept together. Iterative, so any depth is fine.
 */
export function indentJSON(compact: string): string {
  const out: string[] = [];
  let depth = 0;
  // After an opening bracket: the newline is written only when a member follows (not for {}).
  let open = false;
  const newline = (): void => { out.push(`\n${'  '.repeat(depth)}`); };
  for (let i = 0; i < compact.length; i++) {
    const c = compact.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Copy the whole string literal.
      let j = i + 1;
      while (j < compact.length) {
        const d = compact.charCodeAt(j);
        if (d === 0x5c /* \ */) j += 2;
        else if (d === 0x22) break;
        else j++;
      }
      if (open) { open = false; newline(); }
      out.push(compact.slice(i, j + 1));
      i = j;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (open) newline();
      out.push(compact[i] ?? '');
      depth++;
      open = true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
      if (!open) newline();
      open = false;
      out.push(compact[i] ?? '');
    } else if (c === 0x2c /* , */) {
      out.push(',');
      newline();
    } else if (c === 0x3a /* : */) {
      out.push(': ');
    } else {
      // A number, true, false or null: up to the next structural character.
      let j = i;
      while (j < compact.length && !',:]}'.includes(compact[j] ?? '')) j++;
      if (open) { open = false; newline(); }
      out.push(compact.slice(i, j));
      i = j - 1;
    }
  }
  return out.join('');
}
