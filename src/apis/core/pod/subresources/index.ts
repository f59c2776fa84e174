// The pod subresources with REST of their own, for ResourceDefinition.extraSubresources.
// Counterpart of pkg/registry/core/pod/storage/storage.go (PodStorage).
import type { Getter, Updater } from '../../../../registry/rest/capabilities.ts';
import type { StoreLookup, SubresourceREST } from '../../../../registry/rest/group.ts';
import type { ResourceStore, Strategy } from '../../../../registry/rest/strategy.ts';
import { newBindingREST } from '../../binding/binding.ts';
import type { Pod } from '../../v1/types.ts';
import { podConnecters } from './connect.ts';
import { podEphemeralContainersStrategy } from './ephemeral-containers.ts';
import { newEvictionREST } from './eviction.ts';
import { podResizeStrategy } from './resize.ts';

/** get and update (so patch) through another strategy, as status subresources are served. */
function getUpdateView(store: ResourceStore<Pod>, strategy: Strategy<Pod>): Getter & Updater {
  const view = store.withStrategy(strategy);
  return {
    get: view.get.bind(view),
    update: (ctx, name, info, validateCreate, validateUpdate, _forceAllowCreate, opts) =>
      view.update(ctx, name, info, validateCreate, validateUpdate, false, opts),
  };
}

export function podSubresources(store: ResourceStore<Pod>, lookup: StoreLookup): SubresourceREST[] {
  const pods: ResourceStore = store;
  const connect = podConnecters(pods, lookup);
  return [
    { name: 'binding', kind: 'Binding', storage: newBindingREST(pods) },
    { name: 'eviction', kind: 'Eviction', kindGroupVersion: { group: 'policy', version: 'v1' }, storage: newEvictionREST(pods, lookup) },
    { name: 'ephemeralcontainers', kind: 'Pod', storage: getUpdateView(store, podEphemeralContainersStrategy) },
    { name: 'resize', kind: 'Pod', storage: getUpdateView(store, podResizeStrategy) },
    ...Object.entries(connect).map(([name, storage]) => ({ name, kind: kindOf(name), storage })),
  ];
}

/** The options kind discovery names for each connect subresource. */
function kindOf(name: string): string {
  switch (name) {
    case 'attach': return 'PodAttachOptions';
    case 'exec': return 'PodExecOptions';
    case 'portforward': return 'PodPortForwardOptions';
    case 'proxy': return 'PodProxyOptions';
    default: return 'Pod';
  }
}
