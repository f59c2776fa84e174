// Test fixtures for the pod subresources: generic Stores of the core resources on an in-memory
// SQLite backend, and a request context naming a subresource.
// No Go counterpart: test fixtures.
import type { KubeObject } from '../../../../apimachinery/meta/types.ts';
import { systemContext, type RequestContext, type UserInfo } from '../../../../apimachinery/request/context.ts';
import { Store } from '../../../../registry/generic/store.ts';
import type { StoreLookup } from '../../../../registry/rest/group.ts';
import type { ResourceDefinition } from '../../../../registry/rest/strategy.ts';
import type { Backend } from '../../../../storage/backend.ts';
import { jsonCodec } from '../../../../storage/json-codec.ts';
import { openSqliteBackend } from '../../../../storage/sqlite/sqlite-backend.ts';
import { newStore } from '../../../../storage/store.ts';
import { nodes } from '../../node/node.ts';
import { secrets } from '../../secret/secret.ts';
import { serviceAccounts } from '../../serviceaccount/serviceaccount.ts';
import { pods } from '../pod.ts';

export interface Fixture {
  readonly backend: Backend;
  readonly stores: Map<string, Store<KubeObject>>;
  readonly lookup: StoreLookup;
  store(resource: string): Store<KubeObject>;
}

export async function newFixture(extra: readonly ResourceDefinition<KubeObject>[] = []): Promise<Fixture> {
  const backend = await openSqliteBackend({ path: ':memory:' });
  const stores = new Map<string, Store<KubeObject>>();
  const defs = [pods, nodes, serviceAccounts, secrets].map((d) => d as unknown as ResourceDefinition<KubeObject>);
  for (const def of [...defs, ...extra]) {
    const key = def.group === '' ? def.resource : `${def.resource}.${def.group}`;
    const apiVersion = def.group === '' ? 'v1' : `${def.group}/v1`;
    stores.set(key, new Store({ definition: def, storage: newStore(backend, jsonCodec), keyPrefix: `/registry/${key}`, listApiVersion: apiVersion }));
  }
  return {
    backend, stores, lookup: (gr) => stores.get(gr),
    store(resource) {
      const s = stores.get(resource);
      if (s === undefined) throw new Error(`no store ${resource}`);
      return s;
    },
  };
}

/** A context for a request on `<resource>/<name>/<subresource>` in `namespace`. */
export function subresourceContext(namespace: string, resource: string, name: string, subresource: string,
  user?: UserInfo, rest: readonly string[] = []): RequestContext {
  const base = systemContext(namespace);
  return {
    ...base, ...(user !== undefined ? { user } : {}),
    info: { ...base.info, resource, name, subresource, namespace, parts: [resource, name, subresource, ...rest] },
  };
}

export function minimalPod(name: string, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: 'web' } },
    spec: {
      containers: [{ name: 'c', image: 'nginx', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }],
      restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, ...extra,
    },
  } as unknown as KubeObject;
}
