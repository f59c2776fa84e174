// Continue tokens of paginated lists, byte-compatible with kube-apiserver's (storage/continue.go):
// base64url (no padding) of {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key after the prefix>"}.
// Counterpart of k8s.io/apiserver/pkg/storage/continue.go.
import { decodeStrictJSON, JSONSyntaxError, type Shape } from '../apimachinery/fieldvalidation/index.ts';
import { StorageError } from './interfaces.ts';

const VERSION = 'meta.k8s.io/v1';
const INVALID = 'continue key is not valid';

/** Escapes as Go's encoding/json does, so tokens match kube's byte for byte. */
function goJsonString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029\b\f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Token for a list that goes on at `key` (inclusive) under `keyPrefix`, read at `revision` (-1: the newest). */
export function encodeContinue(key: string, keyPrefix: string, revision: number): string {
  if (!key.startsWith(keyPrefix) || key === keyPrefix) {
    throw new Error('unable to encode next field: the key and key prefix do not match');
  }
  const json = `{"v":"${VERSION}","rv":${revision},"start":${goJsonString(key.slice(keyPrefix.length))}}`;
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** A rooted path equal to its path.Clean form: no empty, "." or ".." segments. */
function isClean(p: string): boolean {
  if (p === '/') return true;
  return p.split('/').slice(1).every((s) => s !== '' && s !== '.' && s !== '..');
}

const invalid = (msg: string): StorageError => new StorageError('InvalidContinue', '', `invalid continue token: ${msg}`);

// The Go type tokens decode into (json.Unmarshal: unknown keys ignored, wrong types fatal).
const STRING: Shape = { kind: 'scalar', goName: 'string', json: 'string' };
const TOKEN: Shape = {
  kind: 'struct', goName: 'storage.continueToken', preserveUnknown: true,
  fields: (name) => (name === 'v' || name === 'start' ? STRING : name === 'rv' ? { kind: 'scalar', goName: 'int64', json: 'integer' } : undefined),
};

/** base64.RawURLEncoding.DecodeString's error: the offset of the first byte it cannot use. */
function base64Error(token: string): string | undefined {
  const bad = token.search(/[^A-Za-z0-9_\-\r\n]/);
  if (bad >= 0) return `illegal base64 data at input byte ${bad}`;
  const data = token.replace(/[\r\n]/g, '');
  // One character alone cannot make a byte: Go blames it.
  if (data.length % 4 === 1) return `illegal base64 data at input byte ${token.lastIndexOf(data.slice(-1))}`;
  return undefined;
}

/**
 * Decodes a token into the key to continue from and its revision. Rejects with InvalidContinue
 * carrying kube's message ("invalid continue token: continue key is not valid: ..."), with Go's
 * base64 and encoding/json error texts.
 */
export function decodeContinue(token: string, keyPrefix: string): { key: string; revision: number } {
  const b64 = base64Error(token);
  if (b64 !== undefined) throw invalid(`${INVALID}: ${b64}`);
  let decoded: { value: unknown; typeError: string | undefined };
  try {
    decoded = decodeStrictJSON(Buffer.from(token.replace(/[\r\n]/g, ''), 'base64url').toString('utf8'), TOKEN, false);
  } catch (err) {
    if (err instanceof JSONSyntaxError) throw invalid(`${INVALID}: ${err.message}`);
    throw err;
  }
  if (decoded.typeError !== undefined) throw invalid(`${INVALID}: ${decoded.typeError}`);
  const c = (typeof decoded.value === 'object' && decoded.value !== null ? decoded.value : {}) as { v?: unknown; rv?: unknown; start?: unknown };
  if (c.v !== VERSION) {
    throw invalid(`${INVALID}: server does not recognize this encoded version ${typeof c.v === 'string' ? c.v : ''}`);
  }
  const rv = typeof c.rv === 'number' && Number.isInteger(c.rv) ? c.rv : 0;
  if (rv === 0) throw invalid(`${INVALID}: incorrect encoded start resourceVersion (version ${VERSION})`);
  const start = typeof c.start === 'string' ? c.start : '';
  if (start === '') throw invalid(`${INVALID}: encoded start key empty (version ${VERSION})`);
  // The start key cannot climb out of the prefix (path traversal by clients).
  const rooted = start.startsWith('/') ? start : `/${start}`;
  if (!isClean(rooted)) throw invalid(`${INVALID}: ${start}`);
  return { key: keyPrefix + rooted.slice(1), revision: rv };
}
