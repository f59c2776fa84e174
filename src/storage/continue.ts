// Continue tokens of paginated lists, byte-compatible with kube-apiserver's (storage/continue.go):
// base64url (no padding) of {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key after the prefix>"}.
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

/**
 * Decodes a token into the key to continue from and its revision. Rejects with InvalidContinue
 * carrying kube's message ("invalid continue token: continue key is not valid: ...").
 */
export function decodeContinue(token: string, keyPrefix: string): { key: string; revision: number } {
  if (!/^[A-Za-z0-9_-]*$/.test(token) || token.length % 4 === 1) {
    throw invalid(`${INVALID}: illegal base64 data at input byte ${token.search(/[^A-Za-z0-9_-]/) >>> 0}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (err) {
    throw invalid(`${INVALID}: ${(err as Error).message}`);
  }
  const c = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { v?: unknown; rv?: unknown; start?: unknown };
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
