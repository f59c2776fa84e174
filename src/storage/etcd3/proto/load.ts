// Turns the embedded proto text into gRPC method definitions. proto-loader reads files only, so
// the text is written to a private temp dir once per process and removed right after parsing.
// Counterpart of the generated gRPC stubs of go.etcd.io/etcd/api/v3/etcdserverpb.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSync, type MethodDefinition, type PackageDefinition } from '@grpc/proto-loader';
import { KV_PROTO } from './kv-proto.ts';
import { RPC_PROTO } from './rpc-proto.ts';

let cached: PackageDefinition | undefined;

function packageDefinition(): PackageDefinition {
  if (cached !== undefined) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'kapi-etcd-proto-'));
  try {
    writeFileSync(join(dir, 'kv.proto'), KV_PROTO);
    writeFileSync(join(dir, 'rpc.proto'), RPC_PROTO);
    // Longs as strings: lease IDs use all 63 bits. Unset fields get their defaults, so decoded
    // messages always carry every declared field.
    cached = loadSync(join(dir, 'rpc.proto'), {
      includeDirs: [dir], keepCase: true, longs: String, enums: Number, defaults: true, oneofs: true,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return cached;
}

/** The definition of `etcdserverpb.<service>/<method>`; throws for a method the proto lacks. */
export function etcdMethod<Req, Res>(service: string, method: string): MethodDefinition<Req, Res> {
  const svc = packageDefinition()[`etcdserverpb.${service}`];
  const def = svc !== undefined && !('format' in svc) ? svc[method] : undefined;
  if (def === undefined) throw new Error(`etcd proto has no method ${service}/${method}`);
  return def as unknown as MethodDefinition<Req, Res>;
}
