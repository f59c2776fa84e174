// The parts of Go's net/url.Parse that decide what a webhook URL's validation reports: WHATWG
// URL parsing (node's URL) normalises "https:///x" to host "x" and accepts bad escapes, where Go
// keeps the host empty or refuses the URL with its own message.
import { goQuote } from '../apimachinery/goformat/index.ts';

export interface GoURL {
  readonly scheme: string;
  readonly host: string;
  /** u.User.String(): "name" or "name:password"; undefined without an "@". */
  readonly user?: string;
  readonly rawQuery: string;
  readonly fragment: string;
}

const HOST_PUNCT = "-_.~!$&'()*+,;=:[]<>\"";
const isAlnum = (c: string): boolean => /^[A-Za-z0-9]$/.test(c);

/** The first bad %-escape of s, as Go's EscapeError prints it, or undefined. */
function badEscape(s: string, host: boolean): string | undefined {
  for (let i = 0; i < s.length; i++) {
    const c = s[i] ?? '';
    if (c === '%') {
      if (!/^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) return `invalid URL escape ${goQuote(s.slice(i, i + 3))}`;
      i += 2;
    } else if (host && c.charCodeAt(0) < 0x80 && !isAlnum(c) && !HOST_PUNCT.includes(c)) {
      return `invalid character ${goQuote(c)} in host name`;
    }
  }
  return undefined;
}

/** Go's url.Parse: the parsed parts, or the error text ("parse \"...\": ..."). */
export function parseGoURL(raw: string): GoURL | string {
  const fail = (msg: string): string => `parse ${goQuote(raw)}: ${msg}`;
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) { fragment = rest.slice(hash + 1); rest = rest.slice(0, hash); }
  if (/[\x00-\x1f\x7f]/.test(rest)) return fail('net/url: invalid control character in URL');
  let scheme = '';
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (rest.startsWith(':')) return fail('missing protocol scheme');
  if (m !== null) { scheme = (m[1] ?? '').toLowerCase(); rest = rest.slice(m[0].length); }
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) { rawQuery = rest.slice(q + 1); rest = rest.slice(0, q); }
  let host = '';
  let user: string | undefined;
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { scheme, host, rawQuery, fragment }; // opaque, e.g. "https:example.com"
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':')) return fail('first path segment in URL cannot contain colon');
  } else if (rest.startsWith('//') && (scheme !== '' || !rest.startsWith('///'))) {
    rest = rest.slice(2);
    const slash = rest.indexOf('/');
    let authority = slash < 0 ? rest : rest.slice(0, slash);
    rest = slash < 0 ? '' : rest.slice(slash);
    const at = authority.lastIndexOf('@');
    if (at >= 0) { user = authority.slice(0, at); authority = authority.slice(at + 1); }
    const colon = authority.startsWith('[') ? authority.indexOf(':', authority.indexOf(']')) : authority.lastIndexOf(':');
    if (colon >= 0 && !/^:\d*$/.test(authority.slice(colon))) return fail(`invalid port ${goQuote(authority.slice(colon))} after host`);
    const hostErr = badEscape(authority, true);
    if (hostErr !== undefined) return fail(hostErr);
    host = authority;
  }
  const pathErr = badEscape(rest, false) ?? badEscape(fragment, false);
  if (pathErr !== undefined) return fail(pathErr);
  return { scheme, host, ...(user === undefined ? {} : { user }), rawQuery, fragment };
}
