// Turns the embedded proto text into gRPC method definitions, parsed once per process.
// Counterpart of the generated gRPC stubs of go.etcd.io/etcd/api/v3/etcdserverpb.
import type { MethodDefinition, PackageDefinition } from '@grpc/proto-loader';
import { loadProtoText } from '../../proto-text.ts';
import { KV_PROTO } from './kv-proto.ts';
import { RPC_PROTO } from './rpc-proto.ts';

let cached: PackageDefinition | undefined;

function packageDefinition(): PackageDefinition {
  // Longs as strings: lease IDs use all 63 bits. Unset fields get their defaults, so decoded
  // messages always carry every declared field.
  cached ??= loadProtoText({ 'kv.proto': KV_PROTO, 'rpc.proto': RPC_PROTO }, 'rpc.proto', {
    keepCase: true, longs: String, enums: Number, defaults: true, oneofs: true,
  });
  return cached;
}

/** Every field of a message type, listed once: the compiler checks the list is complete. */
export type FieldsOf<T> = { readonly [K in keyof T]-?: true };

/** A gRPC method with its request and response types. */
export interface EtcdMethod<Req, Res> {
  readonly path: string;
  readonly serialize: (req: Req) => Buffer;
  readonly deserialize: (bytes: Buffer) => Res;
}

// proto-loader decodes with defaults, so a response holds every field its message declares.
function hasFields<T extends object>(o: object, fields: readonly string[]): o is T {
  return fields.every((f) => f in o);
}

/**
 * The definition of `etcdserverpb.<service>/<method>`; throws for a method the proto lacks. A
 * response without one of `responseFields` fails the call (grpc-js reports a parse error).
 */
export function etcdMethod<Req extends object, Res extends object>(service: string, method: string,
  responseFields: FieldsOf<Res>): EtcdMethod<Req, Res> {
  const svc = packageDefinition()[`etcdserverpb.${service}`];
  const def: MethodDefinition<object, object> | undefined = svc !== undefined && !('format' in svc) ? svc[method] : undefined;
  if (def === undefined) throw new Error(`etcd proto has no method ${service}/${method}`);
  const fields = Object.keys(responseFields);
  const deserialize = (bytes: Buffer): Res => {
    const msg = def.responseDeserialize(bytes);
    if (!hasFields<Res>(msg, fields)) throw new Error(`etcd ${service}/${method}: response without the fields of its message`);
    return msg;
  };
  return { path: def.path, serialize: def.requestSerialize, deserialize };
}
