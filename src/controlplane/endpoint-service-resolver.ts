// Resolves a webhook's Service reference to a ready endpoint of the service's EndpointSlices,
// as kube-apiserver does with --enable-aggregator-routing. kapi has no service proxy (no
// kube-proxy routes a ClusterIP), so this is kapi's only resolver: the webhook's TLS server name
// stays `<service>.<namespace>.svc` (src/webhook/client.ts) whatever address is dialled.
// Counterpart of ResolveEndpoint in k8s.io/apiserver/pkg/util/proxy/proxy.go and
// NewEndpointServiceResolver in k8s.io/kube-aggregator/pkg/apiserver/resolvers.go.
import { newNotFound, newServiceUnavailable } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { goQuote } from '../apimachinery/goformat/index.ts';
import type { ServiceResolver } from '../webhook/service-resolver.ts';
import { joinHostPort } from '../webhook/net-errors.ts';

/** Reads objects of a namespace (an informer-backed ObjectCache). */
export interface NamespacedReader {
  get(namespace: string, name: string): Promise<KubeObject | undefined>;
  list(namespace: string): Promise<KubeObject[]>;
}

interface ServiceShape extends KubeObject {
  spec?: { type?: string; ports?: { name?: string; port?: number }[]; ipFamilies?: string[] };
}
interface EndpointSliceShape extends KubeObject {
  addressType?: string;
  ports?: { name?: string | null; port?: number | null }[] | null;
  endpoints?: { addresses?: string[]; conditions?: { ready?: boolean | null } }[] | null;
}

const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/**
 * A resolver over the services and EndpointSlices readers; the readers are made on first use,
 * so that a server without service-referencing webhooks follows neither resource.
 */
export function newEndpointServiceResolver(readers: () => { services: NamespacedReader; endpointSlices: NamespacedReader | undefined }): ServiceResolver {
  let made: ReturnType<typeof readers> | undefined;
  return {
    async resolveEndpoint(namespace, name, port) {
      made ??= readers();
      const svc = await made.services.get(namespace, name) as ServiceShape | undefined;
      if (svc === undefined) throw newNotFound({ group: '', resource: 'service' }, name);
      const type = svc.spec?.type ?? 'ClusterIP';
      if (type !== 'ClusterIP' && type !== 'LoadBalancer' && type !== 'NodePort') {
        throw new Error(`unsupported service type ${goQuote(type)}`);
      }
      const svcPort = (svc.spec?.ports ?? []).find((p) => p.port === port);
      if (svcPort === undefined) throw newServiceUnavailable(`no service port ${String(port)} found for service ${goQuote(name)}`);
      const all = made.endpointSlices === undefined ? [] : await made.endpointSlices.list(namespace);
      const slices = (all as EndpointSliceShape[]).filter((s) => s.metadata.labels?.[SERVICE_NAME_LABEL] === name);
      if (slices.length === 0) throw newServiceUnavailable(`no endpoints available for service ${goQuote(name)}`);
      // Slices of the service's primary IP family first (kube shuffles within each family).
      const preferred = svc.spec?.ipFamilies?.[0];
      if (preferred !== undefined) slices.sort((a, b) => Number(b.addressType === preferred) - Number(a.addressType === preferred));
      const portName = svcPort.name ?? '';
      for (const slice of slices) {
        for (const p of slice.ports ?? []) {
          // An unset name is the empty one (discovery/v1 defaults it so).
          if ((p.name ?? '') !== portName || typeof p.port !== 'number') continue;
          const eps = slice.endpoints ?? [];
          if (eps.length === 0) continue;
          const offset = Math.floor(Math.random() * eps.length);
          for (let i = 0; i < eps.length; i++) {
            const ep = eps[(i + offset) % eps.length];
            const ready = ep?.conditions?.ready;
            const ip = ep?.addresses?.[0];
            if ((ready === undefined || ready === null || ready) && ip !== undefined) {
              return new URL(`https://${joinHostPort(ip, p.port)}`);
            }
          }
        }
      }
      throw newServiceUnavailable(`no endpoints available for service ${goQuote(name)}`);
    },
  };
}
