// Where each resource lives in storage: kube-apiserver's key prefixes (so tools that know
// etcd's layout can read a kapi store) and the version objects are stored in.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { Scheme } from '../apimachinery/runtime/scheme.ts';
import type { GroupVersion } from '../apimachinery/schema/group-version.ts';
import type { Codec } from '../storage/interfaces.ts';

/** Resources whose etcd prefix is not `<group>/<resource>` (history kept by kube-apiserver). */
const SPECIAL_PREFIXES: Readonly<Record<string, string>> = {
  '/services': 'services/specs',
  '/endpoints': 'services/endpoints',
  '/nodes': 'minions',
  '/replicationcontrollers': 'controllers',
  'apps/deployments': 'deployments',
  'apps/replicasets': 'replicasets',
  'apps/statefulsets': 'statefulsets',
  'apps/daemonsets': 'daemonsets',
  'apps/controllerrevisions': 'controllerrevisions',
  'batch/jobs': 'jobs',
  'batch/cronjobs': 'cronjobs',
  'policy/poddisruptionbudgets': 'poddisruptionbudgets',
  'networking.k8s.io/ingresses': 'ingress',
  'networking.k8s.io/networkpolicies': 'networkpolicies',
  'rbac.authorization.k8s.io/roles': 'roles',
  'rbac.authorization.k8s.io/rolebindings': 'rolebindings',
  'rbac.authorization.k8s.io/clusterroles': 'clusterroles',
  'rbac.authorization.k8s.io/clusterrolebindings': 'clusterrolebindings',
  'storage.k8s.io/storageclasses': 'storageclasses',
  'scheduling.k8s.io/priorityclasses': 'priorityclasses',
  'coordination.k8s.io/leases': 'leases',
  'autoscaling/horizontalpodautoscalers': 'horizontalpodautoscalers',
  'certificates.k8s.io/certificatesigningrequests': 'certificatesigningrequests',
};

/** `/registry/<...>`: core resources directly under the prefix, others under their group. */
export function keyPrefixFor(etcdPrefix: string, group: string, resource: string): string {
  const root = etcdPrefix.replace(/\/+$/, '');
  const special = SPECIAL_PREFIXES[`${group}/${resource}`];
  if (special !== undefined) return `${root}/${special}`;
  return group === '' ? `${root}/${resource}` : `${root}/${group}/${resource}`;
}

/** Encodes in the storage version; decodes what is stored (already in that version: the hub for now). */
export function storageCodec(scheme: Scheme, storageVersion: GroupVersion): Codec {
  return {
    encode: (obj: KubeObject) => JSON.stringify(scheme.convertToVersion(obj, storageVersion)),
    decode: (data: string) => JSON.parse(data) as KubeObject,
  };
}
