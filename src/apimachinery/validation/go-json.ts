// The text of the error Go's encoding/json returns for input JSON.parse refuses, for the messages
// kube builds from it (a Secret's .dockerconfigjson, a Node's taints annotation): the syntax
// errors a hand-written value usually has.
/** The JSON value of `text` as Go parses it, or Go's error text. */
export function goJSONParse(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { error: goJSONSyntaxError(text) };
  }
}

const quoteChar = (c: string): string => (c === "'" ? "'\\''" : `'${c}'`);

/** Go's scanner error for the first byte that cannot start (or continue) a JSON value. */
function goJSONSyntaxError(text: string): string {
  const trimmed = text.replace(/^[ \t\r\n]+/, '');
  if (trimmed === '') return 'unexpected end of JSON input';
  const c = trimmed[0] ?? '';
  if (!/^[{["\-0-9tfn]/.test(c)) return `invalid character ${quoteChar(c)} looking for beginning of value`;
  // a literal that starts well and then goes wrong: Go names the first byte that breaks it; at the
  // end of the input its scanner is fed a space, which it names too
  for (const lit of ['true', 'false', 'null']) {
    if (c !== lit[0]) continue;
    for (let i = 1; i < lit.length; i++) {
      const got = trimmed[i] ?? ' ';
      if (got !== lit[i]) return `invalid character ${quoteChar(got)} in literal ${lit} (expecting ${quoteChar(lit[i] ?? '')})`;
    }
  }
  if (/^-\s*$/.test(trimmed)) return `invalid character ${quoteChar(trimmed[1] ?? ' ')} in numeric literal`;
  return 'unexpected end of JSON input';
}

/** The Go kind json.Unmarshal names when a value does not fit the target type. */
export function goJSONKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': return 'number';
    case 'boolean': return 'bool';
    default: return 'object';
  }
}
