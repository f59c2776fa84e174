// EndpointSlices (pkg/registry/discovery/endpointslice): generation starts at 1 and grows with
// every change outside metadata. Ports default to name "" and protocol TCP.
import { deepEqual } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, bumpGenerationIfChanged, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { Endpoint, EndpointPort, EndpointSlice } from '../v1/types.ts';
import { validateEndpointSliceCreate, validateEndpointSliceUpdate } from './validation.ts';

const HOSTNAME_LABEL = 'kubernetes.io/hostname';

/** SetDefaults_EndpointPort. */
function defaultEndpointSlice(eps: EndpointSlice): void {
  for (const port of eps.ports ?? []) {
    port.name ??= '';
    port.protocol ??= 'TCP';
  }
}

/**
 * dropTopologyOnV1: v1 writes cannot set deprecatedTopology (kapi serves no v1beta1). A node name
 * the old slice recorded there is carried into nodeName; unchanged endpoints are left alone.
 */
function dropTopologyOnV1(eps: EndpointSlice, old: DeepReadonly<EndpointSlice> | undefined): void {
  if (old !== undefined && deepEqual(eps.endpoints, old.endpoints)) return;
  const prevNodeNames = new Set((old?.endpoints ?? []).map((e) => e.deprecatedTopology?.[HOSTNAME_LABEL] ?? '').filter((n) => n !== ''));
  for (const ep of eps.endpoints ?? []) {
    const name = ep.deprecatedTopology?.[HOSTNAME_LABEL];
    if (ep.nodeName === undefined && name !== undefined && prevNodeNames.has(name) && isDNS1123Subdomain(name).length === 0) ep.nodeName = name;
    delete ep.deprecatedTopology;
  }
}

/** Everything but metadata: what the generation follows. */
function content(eps: DeepReadonly<EndpointSlice>): unknown {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = eps;
  return rest;
}

/** listWithMoreString: at most three entries, then "+ N more...", "<unset>" when empty. */
function listWithMore(items: readonly string[]): string {
  const shown = items.slice(0, 3).join(',');
  if (items.length > 3) return `${shown} + ${items.length - 3} more...`;
  return shown === '' ? '<unset>' : shown;
}

const formatDiscoveryPorts = (ports: DeepReadonly<EndpointPort[]> | undefined): string =>
  listWithMore((ports ?? []).map((p) => (p.port !== undefined ? String(p.port) : p.name !== undefined ? p.name : '*')));

const formatDiscoveryEndpoints = (endpoints: DeepReadonly<Endpoint[]> | undefined): string =>
  listWithMore((endpoints ?? []).flatMap((e) => e.addresses ?? []));

export const endpointSlices = {
  group: 'discovery.k8s.io', kind: 'EndpointSlice', resource: 'endpointslices', singular: 'endpointslice', namespaced: true,
  strategy: specStatusStrategy<EndpointSlice>({
    prepareForCreate(_ctx, eps) { eps.metadata.generation = 1; dropTopologyOnV1(eps, undefined); },
    validate: (eps) => validateEndpointSliceCreate(eps),
    prepareForUpdate(_ctx, eps, old) {
      dropTopologyOnV1(eps, old);
      bumpGenerationIfChanged(eps.metadata, content(eps), content(old));
    },
    revalidateOnUpdate: false,
    validateUpdate: (eps, old) => validateEndpointSliceUpdate(eps, old),
  }),
  defaults: defaultEndpointSlice,
  table: [
    nameColumn<EndpointSlice>(),
    { name: 'AddressType', type: 'string',      cell: (eps) => eps.addressType ?? '' },
    { name: 'Ports', type: 'string',      cell: (eps) => formatDiscoveryPorts(eps.ports) },
    { name: 'Endpoints', type: 'string',      cell: (eps) => formatDiscoveryEndpoints(eps.endpoints) },
    ageColumn<EndpointSlice>(),
  ],
} satisfies ResourceDefinition<EndpointSlice>;

