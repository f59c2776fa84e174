// Go's mime.ParseMediaType, which kube-apiserver runs on a request's Content-Type before it
// picks a decoder: any error there (no media type, a stray token after the subtype, a parameter
// without "=", a duplicate parameter) is a 415, whatever the base type.
import { setKey } from '../apimachinery/patch/index.ts';

export interface MediaType {
  /** Lower-cased "type/subtype" (or a bare token, which Go accepts as a disposition). */
  readonly mediaType: string;
  readonly params: Readonly<Record<string, string>>;
}

// RFC 1521 tspecials plus space and controls: what may not appear in a token.
const isTokenChar = (c: string): boolean => {
  const code = c.charCodeAt(0);
  return code > 0x20 && code < 0x7f && !'()<>@,;:\\"/[]?='.includes(c);
};

/** Leading token characters of `v` and the rest. */
function consumeToken(v: string): [string, string] {
  let i = 0;
  while (i < v.length && isTokenChar(v[i] ?? '')) i++;
  return [v.slice(0, i), v.slice(i)];
}

/** A token or a quoted string (with backslash escapes); '' and `v` when neither. */
function consumeValue(v: string): [string, string] {
  if (v === '') return ['', v];
  if (v[0] !== '"') return consumeToken(v);
  let out = '';
  for (let i = 1; i < v.length; i++) {
    const c = v[i] ?? '';
    if (c === '"') return [out, v.slice(i + 1)];
    if (c === '\\' && i + 1 < v.length && isTSpecial(v[i + 1] ?? '')) {
      out += v[i + 1];
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') return ['', v];
    out += c;
  }
  return ['', v];
}

const isTSpecial = (c: string): boolean => '()<>@,;:\\"/[]?='.includes(c);

const trimLeftSpace = (s: string): string => s.replace(/^\s+/, '');

/** One "; key=value": the key (lower-cased) and value, or an empty key and `v` unchanged. */
function consumeParam(v: string): [string, string, string] {
  let rest = trimLeftSpace(v);
  if (!rest.startsWith(';')) return ['', '', v];
  rest = trimLeftSpace(rest.slice(1));
  const [param, afterParam] = consumeToken(rest);
  if (param === '') return ['', '', v];
  rest = trimLeftSpace(afterParam);
  if (!rest.startsWith('=')) return ['', '', v];
  rest = trimLeftSpace(rest.slice(1));
  const [value, afterValue] = consumeValue(rest);
  if (value === '' && afterValue === rest) return ['', '', v];
  return [param.toLowerCase(), value, afterValue];
}

/** The media type and parameters, or undefined where Go's ParseMediaType returns an error. */
export function parseMediaType(v: string): MediaType | undefined {
  const semi = v.indexOf(';');
  const base = semi === -1 ? v : v.slice(0, semi);
  const mediaType = base.toLowerCase().trim();
  // checkMediaTypeDisposition: a token, then optionally "/" and a second token, then nothing.
  const [typ, afterType] = consumeToken(mediaType);
  if (typ === '') return undefined;
  if (afterType !== '') {
    if (!afterType.startsWith('/')) return undefined;
    const [sub, afterSub] = consumeToken(afterType.slice(1));
    if (sub === '' || afterSub !== '') return undefined;
  }
  const params: Record<string, string> = {};
  let rest = v.slice(base.length);
  while (rest.length > 0) {
    rest = trimLeftSpace(rest);
    if (rest === '') break;
    const [key, value, after] = consumeParam(rest);
    if (key === '') {
      // One trailing ";" is tolerated, anything else is an invalid parameter.
      if (after.trim() === ';') break;
      return undefined;
    }
    // Go merges RFC 2231 continuations ("key*0"); kube never reads parameters of a body's type.
    if (Object.hasOwn(params, key) && params[key] !== value) return undefined;
    setKey(params, key, value);
    rest = after;
  }
  return { mediaType, params };
}
