// Where each resource lives in storage: kube-apiserver's key prefixes (so tools that know
// etcd's layout can read a kapi store) and the version objects are stored in.
// Counterpart of k8s.io/apiserver/pkg/server/storage/storage_factory.go and
// pkg/kubeapiserver/default_storage_factory_builder.go.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { Scheme } from '../apimachinery/runtime/scheme.ts';
import { apiVersionOf, type GroupVersion } from '../apimachinery/schema/group-version.ts';
import type { Backend } from '../storage/backend.ts';
import type { Codec } from '../storage/interfaces.ts';
import type { StorageEncoding } from '../registry/rest/strategy.ts';
import { decodeValue, DEFAULT_STORAGE_MEDIA_TYPE, encodeValue, type StorageMediaType } from '../storage/value-codec.ts';

/**
 * Resources whose etcd prefix is not their resource name (history kept by kube-apiserver's
 * storage factory).
 */
const SPECIAL_PREFIXES: Readonly<Record<string, string>> = {
  '/services': 'services/specs',
  '/endpoints': 'services/endpoints',
  '/nodes': 'minions',
  '/replicationcontrollers': 'controllers',
  'networking.k8s.io/ingresses': 'ingress',
};

/**
 * Groups served by kube's aggregator and apiextensions servers, whose storage puts the group in
 * the prefix (`/registry/apiregistration.k8s.io/apiservices`), as it does for custom resources.
 */
const GROUP_PREFIXED: ReadonlySet<string> = new Set(['apiregistration.k8s.io', 'apiextensions.k8s.io']);

/** `/registry/<resource>` as kube-apiserver lays out its built-in resources in etcd. */
export function keyPrefixFor(etcdPrefix: string, group: string, resource: string): string {
  const root = etcdPrefix.replace(/\/+$/, '');
  const special = SPECIAL_PREFIXES[`${group}/${resource}`];
  if (special !== undefined) return `${root}/${special}`;
  return GROUP_PREFIXED.has(group) ? `${root}/${group}/${resource}` : `${root}/${resource}`;
}

/**
 * Where earlier kapi builds stored a resource: `<group>/<resource>` for the groups other than
 * core, but for these, which already had kube's prefix.
 */
const KUBE_PREFIXED_BEFORE: ReadonlySet<string> = new Set([
  'apps/deployments', 'apps/replicasets', 'apps/statefulsets', 'apps/daemonsets', 'apps/controllerrevisions',
  'batch/jobs', 'batch/cronjobs', 'policy/poddisruptionbudgets', 'networking.k8s.io/networkpolicies',
  'rbac.authorization.k8s.io/roles', 'rbac.authorization.k8s.io/rolebindings', 'rbac.authorization.k8s.io/clusterroles',
  'rbac.authorization.k8s.io/clusterrolebindings', 'storage.k8s.io/storageclasses', 'scheduling.k8s.io/priorityclasses',
  'coordination.k8s.io/leases', 'autoscaling/horizontalpodautoscalers', 'certificates.k8s.io/certificatesigningrequests',
]);

function legacyKeyPrefixFor(etcdPrefix: string, group: string, resource: string): string {
  const current = keyPrefixFor(etcdPrefix, group, resource);
  if (group === '' || GROUP_PREFIXED.has(group) || KUBE_PREFIXED_BEFORE.has(`${group}/${resource}`) || SPECIAL_PREFIXES[`${group}/${resource}`] !== undefined) {
    return current;
  }
  return `${etcdPrefix.replace(/\/+$/, '')}/${group}/${resource}`;
}

const MIGRATION_PAGE = 500;

/**
 * Moves objects an earlier kapi stored under `<group>/<resource>` to kube's `/registry/<resource>`
 * key: each is created at the new key unless something is there already, then deleted at the
 * old one if unchanged. Safe when several servers run it at once. Returns how many moved.
 */
export async function migrateLegacyKeys(backend: Backend, etcdPrefix: string,
  resources: Iterable<{ readonly group: string; readonly resource: string }>): Promise<number> {
  let moved = 0;
  for (const { group, resource } of resources) {
    const from = `${legacyKeyPrefixFor(etcdPrefix, group, resource)}/`;
    const to = `${keyPrefixFor(etcdPrefix, group, resource)}/`;
    if (from === to) continue;
    for (let startKey: string | undefined; ;) {
      const page = await backend.range(from, { prefix: true, limit: MIGRATION_PAGE, ...(startKey === undefined ? {} : { startKey }) });
      for (const kv of page.kvs) {
        await backend.create(to + kv.key.slice(from.length), kv.value);
        const deleted = await backend.delete(kv.key, kv.modRevision);
        if (deleted.succeeded) moved++;
      }
      const last = page.kvs[page.kvs.length - 1];
      if (!page.more || last === undefined) break;
      startKey = `${last.key}\u0000`;
    }
  }
  return moved;
}

/**
 * Encodes in the storage version as `mediaType`; decodes any encoding and any version the scheme
 * converts (what kube or an earlier kapi may have written) into the storage version. `encoding`
 * is a resource's own media type or stored version (kube's StorageFactory overrides).
 */
export function storageCodec(scheme: Scheme, storageVersion: GroupVersion, mediaType: StorageMediaType = DEFAULT_STORAGE_MEDIA_TYPE,
  encoding: StorageEncoding = {}): Codec {
  const apiVersion = apiVersionOf(storageVersion);
  const media = encoding.mediaType ?? mediaType;
  const stored = encoding.version;
  return {
    encode: (obj: KubeObject) => {
      const out = scheme.convertToVersion(obj, storageVersion);
      return encodeValue(stored === undefined ? out : stored.toStorage(out), media);
    },
    decode: (data: string) => {
      let obj = decodeValue(data);
      if (stored !== undefined && obj.apiVersion === stored.apiVersion) obj = stored.fromStorage(obj);
      return obj.apiVersion === apiVersion ? obj : scheme.convertToVersion(obj, storageVersion);
    },
  };
}
