// kube's URL library: url(string), isURL(string) and the getters, with Go's net/url parsing
// (ParseRequestURI to accept, Parse to split) and its error texts.
// Go counterparts: k8s.io/apiserver/pkg/cel/library/urls.go, k8s.io/apiserver/pkg/cel/url.go.
import type { Environment } from '@marcbachmann/cel-js';
import { def, fail } from './util.ts';

/** A parsed URL (Go's url.URL fields kube reads). */
export class KubeURL {
  constructor(
    readonly raw: string,
    readonly scheme: string,
    readonly host: string,
    readonly path: string,
    readonly rawQuery: string,
    readonly opaque: string,
  ) {}
}

const urlError = (raw: string, msg: string): Error => new Error(`parse ${JSON.stringify(raw)}: ${msg}`);

function unescape(s: string, raw: string): string {
  try {
    return decodeURIComponent(s.replace(/%(?![0-9a-fA-F]{2})/g, () => { throw urlError(raw, `invalid URL escape ${JSON.stringify(s.slice(s.indexOf('%'), s.indexOf('%') + 3))}`); }));
  } catch (err) {
    if (err instanceof URIError) return s;
    throw err;
  }
}

function validHost(host: string, raw: string): void {
  let rest = host;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) throw urlError(raw, 'missing \']\' in host');
    rest = host.slice(close + 1);
    if (rest !== '' && !/^:\d*$/.test(rest)) throw urlError(raw, `invalid port ${JSON.stringify(rest)} after host`);
    return;
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !/^:\d*$/.test(host.slice(colon))) throw urlError(raw, `invalid port ${JSON.stringify(host.slice(colon))} after host`);
}

/** Go's url.Parse (viaRequest false) or url.ParseRequestURI (true); throws Go's error text. */
export function parseGoURL(raw: string, viaRequest: boolean): KubeURL {
  let rest = raw;
  if (!viaRequest) {
    const hash = rest.indexOf('#');
    if (hash >= 0) rest = rest.slice(0, hash);
  }
  if (/[\x00-\x1f\x7f]/.test(rest)) throw urlError(raw, 'net/url: invalid control character in URL');
  if (rest === '' && viaRequest) throw urlError(raw, 'empty url');
  if (rest === '*') return new KubeURL(raw, '', '', '*', '', '');
  let scheme = '';
  const sm = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (sm !== null) {
    scheme = sm[1]!.toLowerCase();
    rest = rest.slice(sm[0].length);
  } else if (rest.startsWith(':')) {
    throw urlError(raw, 'missing protocol scheme');
  }
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) {
    if (scheme !== '') return new KubeURL(raw, scheme, '', '', rawQuery, rest);
    if (viaRequest) throw urlError(raw, 'invalid URI for request');
    const seg = rest.split('/')[0] ?? '';
    if (seg.includes(':')) throw urlError(raw, 'first path segment in URL cannot contain colon');
  }
  let host = '';
  if ((scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    const authEnd = rest.indexOf('/', 2);
    const authority = authEnd < 0 ? rest.slice(2) : rest.slice(2, authEnd);
    rest = authEnd < 0 ? '' : rest.slice(authEnd);
    const at = authority.lastIndexOf('@');
    host = at < 0 ? authority : authority.slice(at + 1);
    validHost(host, raw);
    host = unescape(host, raw);
  }
  return new KubeURL(raw, scheme, host, unescape(rest, raw), rawQuery, '');
}

/** Go's url.EscapedPath for a path without a distinct raw form. */
const escapedPath = (p: string): string => encodeURI(p).replace(/%5B/g, '[').replace(/%5D/g, ']').replace(/[?#]/g, encodeURIComponent);

function hostname(host: string): string {
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    return close < 0 ? host.slice(1) : host.slice(1, close);
  }
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

function port(host: string): string {
  const colon = host.lastIndexOf(':');
  if (colon < 0 || (host.startsWith('[') && host.lastIndexOf(']') > colon)) return '';
  const p = host.slice(colon + 1);
  return /^\d*$/.test(p) ? p : '';
}

/** Go's url.ParseQuery: keys to lists of values; pairs with a semicolon are dropped. */
function query(raw: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of raw.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const dec = (s: string): string | undefined => {
      try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { return undefined; }
    };
    const k = dec(eq < 0 ? pair : pair.slice(0, eq));
    const v = dec(eq < 0 ? '' : pair.slice(eq + 1));
    if (k === undefined || v === undefined) continue;
    out.set(k, [...(out.get(k) ?? []), v]);
  }
  return out;
}

function toURL(s: string): KubeURL {
  try {
    parseGoURL(s, true);
    return parseGoURL(s, false);
  } catch (err) {
    return fail(`URL parse error during conversion from string: ${(err as Error).message}`);
  }
}

export function isURL(s: string): boolean {
  try {
    parseGoURL(s, true);
    return true;
  } catch {
    return false;
  }
}

export function registerURLs(env: Environment): void {
  env.registerType('kubernetes.URL', KubeURL);
  def(env, 'url(string): kubernetes.URL', (s: string) => toURL(s));
  def(env, 'isURL(string): bool', (s: string) => isURL(s));
  def(env, 'kubernetes.URL.getScheme(): string', (u: KubeURL) => u.scheme);
  def(env, 'kubernetes.URL.getHost(): string', (u: KubeURL) => u.host);
  def(env, 'kubernetes.URL.getHostname(): string', (u: KubeURL) => hostname(u.host));
  def(env, 'kubernetes.URL.getPort(): string', (u: KubeURL) => port(u.host));
  def(env, 'kubernetes.URL.getEscapedPath(): string', (u: KubeURL) => escapedPath(u.path));
  def(env, 'kubernetes.URL.getQuery(): map<string, list<string>>', (u: KubeURL) => query(u.rawQuery));
  env.registerOperator('kubernetes.URL == kubernetes.URL', (a: KubeURL, b: KubeURL) => a.raw === b.raw);
}
