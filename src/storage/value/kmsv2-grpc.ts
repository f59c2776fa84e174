// The gRPC side of KMS v2: kube's v2.KeyManagementService proto and a stub of a plugin on its unix
// socket. Loaded only when a KMS provider is first used (gRPC is heavy to load).
// Counterpart of k8s.io/kms/pkg/service (the plugin's gRPC client).
import { credentials, loadPackageDefinition, type Client, type ServiceError } from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';
import { loadProtoText } from '../proto-text.ts';
import { KMS_V2_PROTO } from './kmsv2-proto.ts';

let definition: PackageDefinition | undefined;

/** The KMS v2 proto, parsed once. */
export function kmsV2Definition(): PackageDefinition {
  definition ??= loadProtoText({ 'api.proto': KMS_V2_PROTO }, 'api.proto', { keepCase: true, longs: String, enums: Number, defaults: true });
  return definition;
}

export interface EncryptResponse { readonly ciphertext: Buffer; readonly key_id: string; readonly annotations: Record<string, Buffer> }
export interface StatusResponse { readonly version: string; readonly healthz: string; readonly key_id: string }

export type Callback<T> = (err: ServiceError | null, res?: T) => void;
export interface KmsStub extends Client {
  Status(req: object, opts: { deadline: number }, cb: Callback<StatusResponse>): void;
  Encrypt(req: { plaintext: Buffer; uid: string }, opts: { deadline: number }, cb: Callback<EncryptResponse>): void;
  Decrypt(req: { ciphertext: Buffer; uid: string; key_id: string; annotations: Record<string, Buffer> },
    opts: { deadline: number }, cb: Callback<{ plaintext: Buffer }>): void;
}

const isStub = (c: unknown): c is KmsStub => typeof c === 'object' && c !== null && 'Encrypt' in c && 'Status' in c;

/** A stub of the KMS v2 plugin at `unix:///path` (or `unix:/path`). */
export function newKmsStub(endpoint: string): KmsStub {
  const pkg = loadPackageDefinition(kmsV2Definition());
  const ns = pkg.v2;
  const ctor = typeof ns === 'object' && ns !== null && 'KeyManagementService' in ns ? ns.KeyManagementService : undefined;
  if (typeof ctor !== 'function') throw new Error('KMS v2 proto has no KeyManagementService');
  const path = endpoint.replace(/^unix:(\/\/)?/, '');
  const client: unknown = new (ctor as new (addr: string, creds: ReturnType<typeof credentials.createInsecure>) => Client)(
    `unix:${path}`, credentials.createInsecure());
  if (!isStub(client)) throw new Error('KMS v2 client has no methods');
  return client;
}
