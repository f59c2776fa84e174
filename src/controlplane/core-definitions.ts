// The core/v1 resource definitions, with the service IP and node port allocators they need.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { coreV1Resources } from '../apis/core/install.ts';
import { newIPAllocator } from '../apis/core/service/ipallocator.ts';
import { newPortAllocator } from '../apis/core/service/portallocator.ts';
import type { ResourceDefinition } from '../registry/rest/strategy.ts';
import type { Backend } from '../storage/backend.ts';
import { jsonCodec } from '../storage/json-codec.ts';
import { newStore } from '../storage/store.ts';

export interface CoreOptions {
  /** --service-cluster-ip-range, e.g. { text: '10.0.0.0/24' }. */
  readonly serviceClusterIPRange: { readonly text: string };
  /** --service-node-port-range. */
  readonly serviceNodePortRange: { readonly base: number; readonly size: number };
  /** --event-ttl. */
  readonly eventTTLSeconds: number;
}

export async function coreDefinitions(opts: CoreOptions, backend: Backend, _etcdPrefix: string):
  Promise<ResourceDefinition<KubeObject>[]> {
  // The allocators keep their bitmaps in storage, so servers sharing it never hand out one IP twice.
  const ranges = newStore(backend, jsonCodec);
  const r = opts.serviceNodePortRange;
  return coreV1Resources({
    serviceIPs: newIPAllocator(ranges, opts.serviceClusterIPRange.text),
    nodePorts: newPortAllocator(ranges, `${r.base}-${r.base + r.size - 1}`),
    eventTTLSeconds: opts.eventTTLSeconds,
  });
}
