// Builds the REST storage of core/v1: one generic Store per resource, the status and
// finalize subresources as views of it, and the namespaces two-phase delete.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { Scheme } from '../apimachinery/runtime/scheme.ts';
import { namespaceFinalizeStrategy } from '../apis/core/namespace/namespace.ts';
import { namespaceStorage } from '../apis/core/namespace/storage.ts';
import type { Namespace } from '../apis/core/v1/types.ts';
import type { ResourceInstall } from '../endpoints/installer.ts';
import { Store } from '../registry/generic/store.ts';
import type { Getter, Updater } from '../registry/rest/capabilities.ts';
import type { ResourceDefinition } from '../registry/rest/strategy.ts';
import type { Backend } from '../storage/backend.ts';
import { newStore } from '../storage/store.ts';
import { keyPrefixFor, storageCodec } from './storage-factory.ts';

const CORE_V1 = { group: '', version: 'v1' };

/** Only get and update (and so patch): what status subresources serve. */
function getUpdateView(store: Store<KubeObject>): Getter & Updater {
  return { get: store.get.bind(store), update: store.update.bind(store) };
}

export interface CoreREST {
  readonly installs: ResourceInstall[];
  readonly stores: ReadonlyMap<string, Store<KubeObject>>;
}

export function buildCoreREST(scheme: Scheme, backend: Backend, etcdPrefix: string,
  definitions: readonly ResourceDefinition<KubeObject>[]): CoreREST {
  scheme.addKnownKinds(CORE_V1, definitions.map((d) => d.kind));
  const codec = storageCodec(scheme, CORE_V1);
  const installs: ResourceInstall[] = [];
  const stores = new Map<string, Store<KubeObject>>();
  for (const def of definitions) {
    if (def.defaults !== undefined) scheme.addDefaulter({ ...CORE_V1, kind: def.kind }, def.defaults as (o: KubeObject) => void);
    const store = new Store<KubeObject>({
      definition: def,
      storage: newStore(backend, codec, { newBookmark: (rv) => ({ apiVersion: 'v1', kind: def.kind, metadata: { resourceVersion: rv } }) }),
      keyPrefix: keyPrefixFor(etcdPrefix, '', def.resource),
      listApiVersion: 'v1',
    });
    const main = def.resource === 'namespaces' ? namespaceStorage(store as unknown as Store<Namespace>) as unknown as Store<KubeObject> : store;
    stores.set(def.resource, main);
    installs.push({ resource: def.resource, kind: def.kind, storage: main, definition: def, storageVersion: CORE_V1 });
    if (def.statusStrategy !== undefined) {
      installs.push({ resource: def.resource, subresource: 'status', kind: def.kind, definition: def,
        storage: getUpdateView(store.withStrategy(def.statusStrategy)) });
    }
    if (def.resource === 'namespaces') {
      const finalize = store.withStrategy(namespaceFinalizeStrategy as unknown as typeof def.strategy);
      stores.set('namespaces/finalize', finalize);
      installs.push({ resource: def.resource, subresource: 'finalize', kind: def.kind, definition: def,
        storage: { update: finalize.update.bind(finalize) } satisfies Updater });
    }
  }
  return { installs, stores };
}
