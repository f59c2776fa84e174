// The subset of etcd's mvccpb (kv.proto) that kapi uses. Field names and numbers are wire facts;
// the text lives in a .ts module so that the compiled package carries it (tsc copies no .proto).
// Counterpart of go.etcd.io/etcd/api/v3/mvccpb/kv.proto.
export const KV_PROTO = `syntax = "proto3";
package mvccpb;

message KeyValue {
  bytes key = 1;
  int64 create_revision = 2;
  int64 mod_revision = 3;
  int64 version = 4;
  bytes value = 5;
  int64 lease = 6;
}

message Event {
  enum EventType {
    PUT = 0;
    DELETE = 1;
  }
  EventType type = 1;
  KeyValue kv = 2;
  KeyValue prev_kv = 3;
}
`;
