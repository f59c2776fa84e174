// Test helper: a real etcd started by the test (see storage/etcd3/local-etcd.ts).
// Counterpart of k8s.io/apiserver/pkg/storage/etcd3/testing.
export {
  startLocalEtcd as startEtcd, type LocalEtcd as EtcdServer, type LocalEtcdOptions as StartEtcdOptions,
} from '../etcd3/local-etcd.ts';
