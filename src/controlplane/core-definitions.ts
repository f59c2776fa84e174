// The core/v1 group definition, with the service IP and node port allocators and the service
// account token issuer it needs.
// Counterpart of pkg/registry/core/rest/storage_core.go (the allocators and token issuer it builds).
import { coreV1Group } from '../apis/core/install.ts';
import { httpsHealthProbe } from '../apis/core/componentstatus/http-probe.ts';
import type { ServiceAccountTokenIssuer } from '../authn/serviceaccount/index.ts';
import { newIPAllocator } from '../apis/core/service/ipallocator.ts';
import { newPortAllocator } from '../apis/core/service/portallocator.ts';
import { newIPAddressRecorder } from '../apis/networking/ipaddress/recorder.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { APIGroupDefinition } from '../registry/rest/group.ts';
import type { Backend } from '../storage/backend.ts';
import { jsonCodec } from '../storage/json-codec.ts';
import { newStore } from '../storage/store.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

export interface CoreOptions {
  /** --service-cluster-ip-range, e.g. { text: '10.0.0.0/24' }. */
  readonly serviceClusterIPRange: { readonly text: string };
  /** --service-cluster-ip-range's second CIDR (the other family) on a dual-stack cluster. */
  readonly secondaryServiceClusterIPRange?: { readonly text: string };
  /** --service-node-port-range. */
  readonly serviceNodePortRange: { readonly base: number; readonly size: number };
  /** --event-ttl. */
  readonly eventTTLSeconds: number;
  /** Signs serviceaccounts/token tokens (<dataDir>/pki/sa.key); default an in-memory key. */
  readonly serviceAccountTokenIssuer?: ServiceAccountTokenIssuer;
  /** --api-audiences (default: the service account issuers): a TokenRequest naming no audience gets these. */
  readonly apiAudiences?: readonly string[];
}

/** The bitmap key of the secondary range (the primary keeps SERVICE_IPS_KEY). */
const SECONDARY_SERVICE_IPS_KEY = '/registry/ranges/secondaryserviceips';

/** `ipAddresses`: the IPAddress store, once built, where allocated service IPs are published. */
export async function coreDefinitions(opts: CoreOptions, backend: Backend, _etcdPrefix: string,
  ipAddresses: () => ResourceStore<KubeObject> | undefined = () => undefined): Promise<APIGroupDefinition> {
  // The allocators keep their bitmaps in storage, so servers sharing it never hand out one IP twice.
  const ranges = newStore(backend, jsonCodec);
  const r = opts.serviceNodePortRange;
  return coreV1Group({
    serviceIPs: newIPAllocator(ranges, opts.serviceClusterIPRange.text),
    ...(opts.secondaryServiceClusterIPRange !== undefined
      ? { secondaryServiceIPs: newIPAllocator(ranges, opts.secondaryServiceClusterIPRange.text, { key: SECONDARY_SERVICE_IPS_KEY }) } : {}),
    ipAddresses: newIPAddressRecorder(ipAddresses),
    nodePorts: newPortAllocator(ranges, `${r.base}-${r.base + r.size - 1}`),
    eventTTLSeconds: opts.eventTTLSeconds,
    ...(opts.serviceAccountTokenIssuer !== undefined ? { serviceAccountTokenIssuer: opts.serviceAccountTokenIssuer } : {}),
    ...(opts.apiAudiences !== undefined ? { apiAudiences: opts.apiAudiences } : {}),
    components: {
      // kube probes both on their default secure ports on this host, whatever their flags say.
      'controller-manager': httpsHealthProbe('https://127.0.0.1:10257/healthz'),
      scheduler: httpsHealthProbe('https://127.0.0.1:10259/healthz'),
      'etcd-0': async () => { await backend.currentRevision(); return 'ok'; },
    },
  });
}
