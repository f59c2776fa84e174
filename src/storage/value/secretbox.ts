// secretbox (NaCl's XSalsa20-Poly1305) with kube's layout: a 24-byte random nonce, then the box
// (16-byte Poly1305 tag, then the ciphertext). Node's crypto has neither Salsa20 nor a raw
// Poly1305, and no NaCl package is installed, so both are written here from the published specs
// (Bernstein's Salsa20 and XSalsa20 papers; RFC 8439 for Poly1305).
// Counterpart of k8s.io/apiserver/pkg/storage/value/encrypt/secretbox.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Transformer } from './transformer.ts';

const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574] as const;
const NONCE = 24;
const TAG = 16;

const rotl = (v: number, n: number): number => ((v << n) | (v >>> (32 - n))) >>> 0;

/** 20 rounds over a 16-word state, in place. */
function rounds(x: Uint32Array): void {
  const qr = (a: number, b: number, c: number, d: number): void => {
    x[b] = (x[b] ?? 0) ^ rotl(((x[a] ?? 0) + (x[d] ?? 0)) >>> 0, 7);
    x[c] = (x[c] ?? 0) ^ rotl(((x[b] ?? 0) + (x[a] ?? 0)) >>> 0, 9);
    x[d] = (x[d] ?? 0) ^ rotl(((x[c] ?? 0) + (x[b] ?? 0)) >>> 0, 13);
    x[a] = (x[a] ?? 0) ^ rotl(((x[d] ?? 0) + (x[c] ?? 0)) >>> 0, 18);
  };
  for (let i = 0; i < 10; i++) {
    qr(0, 4, 8, 12); qr(5, 9, 13, 1); qr(10, 14, 2, 6); qr(15, 3, 7, 11);
    qr(0, 1, 2, 3); qr(5, 6, 7, 4); qr(10, 11, 8, 9); qr(15, 12, 13, 14);
  }
}

/** The Salsa20 input block: constants, key, and 16 bytes of nonce/counter. */
function initState(key: Buffer, input: Buffer): Uint32Array {
  const s = new Uint32Array(16);
  s[0] = SIGMA[0]; s[5] = SIGMA[1]; s[10] = SIGMA[2]; s[15] = SIGMA[3];
  for (let i = 0; i < 4; i++) { s[1 + i] = key.readUInt32LE(4 * i); s[11 + i] = key.readUInt32LE(16 + 4 * i); }
  for (let i = 0; i < 4; i++) s[6 + i] = input.readUInt32LE(4 * i);
  return s;
}

/** HSalsa20: derives XSalsa20's subkey from the key and the nonce's first 16 bytes. */
function hsalsa20(key: Buffer, nonce16: Buffer): Buffer {
  const x = initState(key, nonce16);
  rounds(x);
  const out = Buffer.alloc(32);
  [0, 5, 10, 15, 6, 7, 8, 9].forEach((w, i) => out.writeUInt32LE(x[w] ?? 0, 4 * i));
  return out;
}

/** XSalsa20 key stream of `length` bytes. */
function xsalsa20Stream(key: Buffer, nonce: Buffer, length: number): Buffer {
  const sub = hsalsa20(key, nonce.subarray(0, 16));
  const input = Buffer.alloc(16);
  nonce.copy(input, 0, 16, 24);
  const out = Buffer.alloc(Math.ceil(length / 64) * 64);
  for (let block = 0; block * 64 < length; block++) {
    input.writeUInt32LE(block >>> 0, 8);
    input.writeUInt32LE(Math.floor(block / 2 ** 32), 12);
    const init = initState(sub, input);
    const x = Uint32Array.from(init);
    rounds(x);
    for (let i = 0; i < 16; i++) out.writeUInt32LE(((x[i] ?? 0) + (init[i] ?? 0)) >>> 0, block * 64 + 4 * i);
  }
  return out.subarray(0, length);
}

const leInt = (b: Buffer): bigint => {
  let v = 0n;
  for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i] ?? 0);
  return v;
};

const P1305 = (1n << 130n) - 5n;

/** Poly1305 one-time authenticator (RFC 8439 section 2.5). */
export function poly1305(key: Buffer, msg: Buffer): Buffer {
  const r = leInt(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;
  const s = leInt(key.subarray(16, 32));
  let acc = 0n;
  for (let i = 0; i < msg.length; i += 16) {
    const chunk = msg.subarray(i, i + 16);
    acc = ((acc + leInt(chunk) + (1n << BigInt(8 * chunk.length))) * r) % P1305;
  }
  let tag = (acc + s) & ((1n << 128n) - 1n);
  const out = Buffer.alloc(16);
  for (let i = 0; i < 16; i++) { out[i] = Number(tag & 0xffn); tag >>= 8n; }
  return out;
}

/** NaCl crypto_secretbox: tag || ciphertext. */
export function secretboxSeal(msg: Buffer, nonce: Buffer, key: Buffer): Buffer {
  const stream = xsalsa20Stream(key, nonce, 32 + msg.length);
  const ct = Buffer.alloc(msg.length);
  for (let i = 0; i < msg.length; i++) ct[i] = (msg[i] ?? 0) ^ (stream[32 + i] ?? 0);
  return Buffer.concat([poly1305(stream.subarray(0, 32), ct), ct]);
}

/** NaCl crypto_secretbox_open: undefined when the tag does not verify. */
export function secretboxOpen(box: Buffer, nonce: Buffer, key: Buffer): Buffer | undefined {
  if (box.length < TAG) return undefined;
  const ct = box.subarray(TAG);
  const stream = xsalsa20Stream(key, nonce, 32 + ct.length);
  if (!timingSafeEqual(poly1305(stream.subarray(0, 32), ct), box.subarray(0, TAG))) return undefined;
  const out = Buffer.alloc(ct.length);
  for (let i = 0; i < ct.length; i++) out[i] = (ct[i] ?? 0) ^ (stream[32 + i] ?? 0);
  return out;
}

export function secretboxTransformer(key: Buffer): Transformer {
  if (key.length !== 32) throw new Error(`secretbox key must be 32 bytes, got ${key.length}`);
  return {
    fromStorage(data) {
      if (data.length < TAG + NONCE) return Promise.reject(new Error('the stored data was shorter than the required size'));
      const out = secretboxOpen(data.subarray(NONCE), data.subarray(0, NONCE), key);
      // kube's message when secretbox.Open fails (a wrong key or tampered data).
      if (out === undefined) return Promise.reject(new Error('output array was not large enough for encryption'));
      return Promise.resolve({ data: out, stale: false });
    },
    toStorage(data) {
      const nonce = randomBytes(NONCE);
      return Promise.resolve(Buffer.concat([nonce, secretboxSeal(data, nonce, key)]));
    },
  };
}
