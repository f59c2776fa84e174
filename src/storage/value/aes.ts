// AES transformers with kube's layouts: aesgcm (12-byte nonce, ciphertext, 16-byte tag; the etcd key
// as authenticated data) and aescbc (16-byte IV, then PKCS#7-padded CBC ciphertext).
// Counterpart of k8s.io/apiserver/pkg/storage/value/encrypt/aes (aes.go, aes_extended_nonce.go).
import { createCipheriv, createDecipheriv, createHmac, randomBytes, type CipherGCMTypes } from 'node:crypto';
import type { Transformer } from './transformer.ts';

const SHORT = 'the stored data was shorter than the required size';

const keyBits = (key: Buffer): 128 | 192 | 256 => {
  const bits = key.length * 8;
  if (bits !== 128 && bits !== 192 && bits !== 256) throw new Error(`crypto/aes: invalid key size ${key.length}`);
  return bits;
};

export function gcmTransformer(key: Buffer): Transformer {
  const name: CipherGCMTypes = `aes-${keyBits(key)}-gcm`;
  return {
    fromStorage(data, ctx) {
      if (data.length < 12) return Promise.reject(new Error(SHORT));
      if (data.length < 12 + 16) return Promise.reject(new Error('cipher: message authentication failed'));
      const d = createDecipheriv(name, key, data.subarray(0, 12));
      d.setAAD(Buffer.from(ctx));
      d.setAuthTag(data.subarray(data.length - 16));
      try {
        return Promise.resolve({ data: Buffer.concat([d.update(data.subarray(12, data.length - 16)), d.final()]), stale: false });
      } catch {
        return Promise.reject(new Error('cipher: message authentication failed'));
      }
    },
    toStorage(data, ctx) {
      const nonce = randomBytes(12);
      const c = createCipheriv(name, key, nonce);
      c.setAAD(Buffer.from(ctx));
      const body = Buffer.concat([c.update(data), c.final()]);
      return Promise.resolve(Buffer.concat([nonce, body, c.getAuthTag()]));
    },
  };
}

export function cbcTransformer(key: Buffer): Transformer {
  const name = `aes-${keyBits(key)}-cbc`;
  return {
    fromStorage(data) {
      if (data.length < 16) return Promise.reject(new Error(SHORT));
      const body = data.subarray(16);
      if (body.length % 16 !== 0) return Promise.reject(new Error('the stored data is not a multiple of the block size'));
      const d = createDecipheriv(name, key, data.subarray(0, 16));
      d.setAutoPadding(false);
      const plain = Buffer.concat([d.update(body), d.final()]);
      // kube checks PKCS#7 itself, with its own messages.
      const pad = plain.length === 0 ? 0 : plain[plain.length - 1] ?? 0;
      if (plain.length === 0 || pad === 0 || pad > 16) return Promise.reject(new Error('invalid PKCS7 data (empty or not padded)'));
      for (let i = plain.length - pad; i < plain.length; i++) {
        if (plain[i] !== pad) return Promise.reject(new Error('invalid padding on input'));
      }
      return Promise.resolve({ data: plain.subarray(0, plain.length - pad), stale: false });
    },
    toStorage(data) {
      const iv = randomBytes(16);
      const c = createCipheriv(name, key, iv);
      return Promise.resolve(Buffer.concat([iv, c.update(data), c.final()]));
    },
  };
}

/** HKDF-Expand with SHA-256 and the seed as the pseudo-random key (no extract step), 32 bytes out. */
function expand32(seed: Buffer, info: Buffer): Buffer {
  return createHmac('sha256', seed).update(info).update(Buffer.from([1])).digest();
}

/**
 * kube's KMS v2 data transformer (HKDF_SHA256_XNONCE_AES_GCM_SEED): each write draws a 32-byte
 * info, derives a key from the seed with it, and stores info + AES-GCM output.
 */
export function extendedNonceGCMTransformer(seed: Buffer): Transformer {
  if (seed.length < 32) throw new Error(`invalid seed length ${seed.length} used for key generation`);
  return {
    async fromStorage(data, ctx) {
      if (data.length < 32) throw new Error(SHORT);
      const info = data.subarray(0, 32);
      return gcmTransformer(expand32(seed, info)).fromStorage(data.subarray(32), ctx);
    },
    async toStorage(data, ctx) {
      const info = randomBytes(32);
      return Buffer.concat([info, await gcmTransformer(expand32(seed, info)).toStorage(data, ctx)]);
    },
  };
}
