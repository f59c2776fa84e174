// A small KMS v2 plugin for tests: serves kube's KeyManagementService on a unix socket and
// encrypts DEKs with AES-GCM under a key named by its current key ID (changeable, for rotation).
// No Go counterpart: a test helper (kube's own mock plugin is k8s.io/apiserver/.../envelope/testing/v2).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPackageDefinition, Server, ServerCredentials, status, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { kmsV2Definition } from '../kmsv2-grpc.ts';

export interface TestKmsPlugin {
  /** unix:///.../kms.sock, for the EncryptionConfiguration's endpoint. */
  readonly endpoint: string;
  keyId: string;
  healthz: string;
  /** Calls seen, by method. */
  readonly calls: Record<'Status' | 'Encrypt' | 'Decrypt', number>;
  stop(): Promise<void>;
}

const keyFor = (id: string): Buffer => createHash('sha256').update(`test-kms:${id}`).digest();

export async function startTestKmsPlugin(keyId = 'key-1'): Promise<TestKmsPlugin> {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-kms-'));
  const sock = join(dir, 'kms.sock');
  const ns = loadPackageDefinition(kmsV2Definition()).v2;
  const svc = typeof ns === 'object' && ns !== null && 'KeyManagementService' in ns ? ns.KeyManagementService : undefined;
  const service = typeof svc === 'function' && 'service' in svc ? (svc.service as ServiceDefinition) : undefined;
  if (service === undefined) throw new Error('no KeyManagementService in the KMS proto');
  const plugin: TestKmsPlugin = {
    endpoint: `unix://${sock}`, keyId, healthz: 'ok', calls: { Status: 0, Encrypt: 0, Decrypt: 0 },
    stop: () => new Promise((resolve) => { server.tryShutdown(() => { rmSync(dir, { recursive: true, force: true }); resolve(); }); }),
  };
  type Cb = (err: { code: number; details: string } | null, res?: object) => void;
  const impl: UntypedServiceImplementation = {
    Status: (_call: unknown, cb: Cb) => { plugin.calls.Status++; cb(null, { version: 'v2', healthz: plugin.healthz, key_id: plugin.keyId }); },
    Encrypt: (call: { request: { plaintext: Buffer } }, cb: Cb) => {
      plugin.calls.Encrypt++;
      const nonce = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', keyFor(plugin.keyId), nonce);
      const body = Buffer.concat([c.update(call.request.plaintext), c.final()]);
      cb(null, { ciphertext: Buffer.concat([nonce, body, c.getAuthTag()]), key_id: plugin.keyId, annotations: { 'kms.kapi.test': Buffer.from('1') } });
    },
    Decrypt: (call: { request: { ciphertext: Buffer; key_id: string } }, cb: Cb) => {
      plugin.calls.Decrypt++;
      const ct = call.request.ciphertext;
      try {
        const d = createDecipheriv('aes-256-gcm', keyFor(call.request.key_id), ct.subarray(0, 12));
        d.setAuthTag(ct.subarray(ct.length - 16));
        cb(null, { plaintext: Buffer.concat([d.update(ct.subarray(12, ct.length - 16)), d.final()]) });
      } catch {
        cb({ code: status.INVALID_ARGUMENT, details: `cannot decrypt with key ${call.request.key_id}` });
      }
    },
  };
  const server = new Server();
  server.addService(service, impl);
  await new Promise<void>((resolve, reject) => {
    server.bindAsync(`unix:${sock}`, ServerCredentials.createInsecure(), (err) => (err === null ? resolve() : reject(err)));
  });
  return plugin;
}
