// KMS v2 envelope encryption as kube-apiserver does it: one random 32-byte seed (the DEK source) is
// encrypted by the KMS plugin over gRPC and reused for writes; each value is AES-GCM under a key
// derived from the seed (HKDF_SHA256_XNONCE_AES_GCM_SEED) and stored as an EncryptedObject proto
// after the `k8s:enc:kms:v2:<name>:` prefix. Decrypted seeds are cached by their ciphertext.
// Counterpart of k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2 (envelope.go, grpc_service.go).
import { randomBytes, randomUUID } from 'node:crypto';
import { extendedNonceGCMTransformer, gcmTransformer } from './aes.ts';
import type { Callback, EncryptResponse, KmsStub, StatusResponse } from './kmsv2-grpc.ts';
import type { Transformer } from './transformer.ts';

export type { EncryptResponse, StatusResponse } from './kmsv2-grpc.ts';

/**
 * A gRPC client of a KMS v2 plugin at `unix:///path` (or `unix:/path`). gRPC loads on the first
 * call, so a server without a KMS provider never loads it.
 */
export class KmsV2Client {
  #stub: Promise<KmsStub> | undefined;

  constructor(private readonly endpoint: string, private readonly timeoutMs: number) {}

  private stub(): Promise<KmsStub> {
    this.#stub ??= import('./kmsv2-grpc.ts').then((m) => m.newKmsStub(this.endpoint));
    return this.#stub;
  }

  private async call<T>(fn: (stub: KmsStub, deadline: number, cb: Callback<T>) => void): Promise<T> {
    const stub = await this.stub();
    return new Promise((resolve, reject) => {
      fn(stub, Date.now() + this.timeoutMs, (err, res) => {
        if (err !== null || res === undefined) reject(err ?? new Error('empty response'));
        else resolve(res);
      });
    });
  }

  status(): Promise<StatusResponse> { return this.call((stub, deadline, cb) => stub.Status({}, { deadline }, cb)); }
  encrypt(plaintext: Buffer): Promise<EncryptResponse> {
    return this.call((stub, deadline, cb) => stub.Encrypt({ plaintext, uid: randomUUID() }, { deadline }, cb));
  }
  async decrypt(ciphertext: Buffer, keyId: string, annotations: Record<string, Buffer>): Promise<Buffer> {
    const res = await this.call<{ plaintext: Buffer }>((stub, deadline, cb) =>
      stub.Decrypt({ ciphertext, uid: randomUUID(), key_id: keyId, annotations }, { deadline }, cb));
    return res.plaintext;
  }
  close(): void { void this.#stub?.then((s) => { s.close(); }, () => {}); }
}

/** kube's EncryptedObject (kmsv2/v2/api.proto). */
export interface EncryptedObject {
  readonly encryptedData: Buffer;
  readonly keyID: string;
  readonly encryptedDEKSource: Buffer;
  readonly annotations: ReadonlyMap<string, Buffer>;
  /** 0 AES_GCM_KEY, 1 HKDF_SHA256_XNONCE_AES_GCM_SEED. */
  readonly encryptedDEKSourceType: number;
}

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) { out.push((v & 0x7f) | 0x80); v = Math.floor(v / 128); }
  out.push(v);
  return Buffer.from(out);
}
const field = (num: number, body: Buffer): Buffer => Buffer.concat([varint((num << 3) | 2), varint(body.length), body]);

export function encodeEncryptedObject(o: EncryptedObject): Buffer {
  const parts = [field(1, o.encryptedData), field(2, Buffer.from(o.keyID)), field(3, o.encryptedDEKSource)];
  for (const [k, v] of [...o.annotations].sort(([a], [b]) => (a < b ? -1 : 1))) {
    parts.push(field(4, Buffer.concat([field(1, Buffer.from(k)), field(2, v)])));
  }
  if (o.encryptedDEKSourceType !== 0) parts.push(varint(5 << 3), varint(o.encryptedDEKSourceType));
  return Buffer.concat(parts);
}

/** Length-delimited and varint fields of one message; anything else is malformed. */
function* fields(buf: Buffer): Generator<[number, Buffer | number]> {
  let i = 0;
  const readVarint = (): number => {
    let v = 0; let mul = 1;
    for (;;) {
      const b = buf[i++];
      if (b === undefined) throw new Error('proto: unexpected end of data');
      v += (b & 0x7f) * mul; mul *= 128;
      if ((b & 0x80) === 0) return v;
    }
  };
  while (i < buf.length) {
    const tag = readVarint();
    const wire = tag & 7;
    if (wire === 0) { yield [tag >>> 3, readVarint()]; continue; }
    if (wire !== 2) throw new Error(`proto: cannot parse invalid wire-format data`);
    const len = readVarint();
    if (i + len > buf.length) throw new Error('proto: unexpected end of data');
    yield [tag >>> 3, buf.subarray(i, i + len)];
    i += len;
  }
}

export function decodeEncryptedObject(data: Buffer): EncryptedObject {
  let encryptedData: Buffer = Buffer.alloc(0); let keyID = ''; let encryptedDEKSource: Buffer = Buffer.alloc(0); let type = 0;
  const annotations = new Map<string, Buffer>();
  for (const [num, v] of fields(data)) {
    if (num === 5 && typeof v === 'number') type = v;
    if (typeof v === 'number') continue;
    if (num === 1) encryptedData = v;
    else if (num === 2) keyID = v.toString();
    else if (num === 3) encryptedDEKSource = v;
    else if (num === 4) {
      let k = ''; let val: Buffer = Buffer.alloc(0);
      for (const [n2, v2] of fields(v)) { if (n2 === 1 && typeof v2 !== 'number') k = v2.toString(); if (n2 === 2 && typeof v2 !== 'number') val = v2; }
      annotations.set(k, val);
    }
  }
  // kube's ValidateEncryptedObject, its messages.
  if (type !== 0 && type !== 1) throw new Error(`unknown encryptedDEKSourceType: ${type}`);
  if (encryptedData.length === 0) throw new Error('encrypted data is empty');
  if (encryptedDEKSource.length === 0) throw new Error('failed to validate encrypted DEK source: encrypted DEK source is empty');
  if (keyID === '') throw new Error('failed to validate key id: keyID is empty');
  return { encryptedData, keyID, encryptedDEKSource, annotations, encryptedDEKSourceType: type };
}

interface WriteState { readonly transformer: Transformer; readonly resp: EncryptResponse }

/** The envelope transformer of one KMS v2 provider. */
export class KmsV2Envelope implements Transformer {
  private write: Promise<WriteState> | undefined;
  private readonly seeds = new Map<string, Transformer>();

  constructor(readonly name: string, readonly client: KmsV2Client) {}

  private writeState(): Promise<WriteState> {
    this.write ??= (async () => {
      const seed = randomBytes(32);
      let resp: EncryptResponse;
      try {
        resp = await this.client.encrypt(seed);
      } catch (err) {
        this.write = undefined;
        throw new Error(`failed to encrypt DEK, error: ${err instanceof Error ? err.message : String(err)}`);
      }
      const transformer = extendedNonceGCMTransformer(seed);
      this.seeds.set(cacheKey(1, resp.ciphertext, resp.key_id), transformer);
      return { transformer, resp };
    })();
    return this.write;
  }

  private poll: NodeJS.Timeout | undefined;

  /**
   * Asks the plugin's Status; when its key ID is not the one the current DEK was encrypted under,
   * the next write makes a new DEK (kube checks every minute), and values under the old key read stale.
   */
  async refreshKeyId(): Promise<string> {
    const { key_id: keyId } = await this.client.status();
    const current = this.write === undefined ? undefined : await this.write.catch(() => undefined);
    if (current !== undefined && current.resp.key_id !== keyId) this.write = undefined;
    this.statusKeyId = keyId;
    return keyId;
  }

  private statusKeyId = '';

  startPolling(intervalMs: number): void {
    this.poll ??= setInterval(() => { this.refreshKeyId().catch(() => {}); }, intervalMs);
    this.poll.unref();
  }

  stopPolling(): void {
    if (this.poll !== undefined) clearInterval(this.poll);
    this.poll = undefined;
  }

  async fromStorage(data: Buffer, key: string): Promise<{ data: Buffer; stale: boolean }> {
    const o = decodeEncryptedObject(data);
    const ck = cacheKey(o.encryptedDEKSourceType, o.encryptedDEKSource, o.keyID);
    let t = this.seeds.get(ck);
    if (t === undefined) {
      let plain: Buffer;
      try {
        plain = await this.client.decrypt(o.encryptedDEKSource, o.keyID, Object.fromEntries(o.annotations));
      } catch (err) {
        throw new Error(`failed to decrypt DEK, error: ${err instanceof Error ? err.message : String(err)}`);
      }
      t = o.encryptedDEKSourceType === 1 ? extendedNonceGCMTransformer(plain) : gcmTransformer(plain);
      this.seeds.set(ck, t);
    }
    const out = await t.fromStorage(o.encryptedData, key);
    const current = this.write === undefined ? undefined : await this.write.catch(() => undefined);
    const keyId = current?.resp.key_id ?? this.statusKeyId;
    // Stale when written under another KMS key than the current one.
    return { data: out.data, stale: keyId !== '' && keyId !== o.keyID };
  }

  async toStorage(data: Buffer, key: string): Promise<Buffer> {
    const st = await this.writeState();
    const encryptedData = await st.transformer.toStorage(data, key);
    return encodeEncryptedObject({
      encryptedData, keyID: st.resp.key_id, encryptedDEKSource: st.resp.ciphertext,
      annotations: new Map(Object.entries(st.resp.annotations)), encryptedDEKSourceType: 1,
    });
  }
}

const cacheKey = (type: number, source: Buffer, keyId: string): string => `${type}/${keyId}/${source.toString('base64')}`;
