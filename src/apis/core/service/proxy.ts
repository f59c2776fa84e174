// services/proxy (pkg/registry/core/service/storage ProxyREST + ResourceLocation): to a ready
// endpoint of the service's port.
import { newBadRequest, newServiceUnavailable } from '../../../apimachinery/errors/status-error.ts';
import type { RequestContext } from '../../../apimachinery/request/context.ts';
import type { ResourceStore } from '../../../registry/rest/strategy.ts';
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import type { Connecter } from '../../../registry/rest/capabilities.ts';
import type { StoreLookup, SubresourceREST } from '../../../registry/rest/group.ts';
import { forward, proxyPath } from '../pod/subresources/backend.ts';
import { PROXY_METHODS, splitSchemeNamePort } from '../pod/subresources/connect.ts';
import type { Endpoints, Service } from '../v1/types.ts';

function serviceProxyREST(services: ResourceStore<KubeObject>, lookup: StoreLookup): Connecter {
  return {
    connectMethods: PROXY_METHODS,
    async connect(ctx: RequestContext, id, req, res, query) {
      const parsed = splitSchemeNamePort(id);
      if (parsed === undefined) throw newBadRequest(`invalid service request "${id}"`);
      const svc = await services.get(ctx, parsed.name, {}) as Service;
      const ports = svc.spec.ports ?? [];
      const svcPort = parsed.port === ''
        ? ports[0]
        : ports.find((p) => p.name === parsed.port || String(p.port) === parsed.port);
      if (svcPort === undefined) throw newServiceUnavailable(`no service port "${parsed.port}" found for service "${parsed.name}"`);
      const endpoints = lookup('endpoints');
      let eps: Endpoints | undefined;
      try {
        eps = endpoints === undefined ? undefined : await endpoints.get(ctx, parsed.name, {}) as Endpoints;
      } catch {
        eps = undefined;
      }
      for (const subset of eps?.subsets ?? []) {
        const port = (subset.ports ?? []).find((p) => (p.name ?? '') === (svcPort.name ?? ''));
        const address = subset.addresses?.[0];
        if (port === undefined || address === undefined) continue;
        const scheme = parsed.scheme === 'https' ? 'https' as const : 'http' as const;
        await forward({ scheme, host: address.ip, port: port.port }, proxyPath(ctx, req), query, req, res);
        return;
      }
      throw newServiceUnavailable(`no endpoints available for service "${id}"`);
    },
  };
}

export function serviceSubresources<T extends KubeObject>(services: ResourceStore<T>, lookup: StoreLookup): SubresourceREST[] {
  return [{ name: 'proxy', kind: 'ServiceProxyOptions', storage: serviceProxyREST(services, lookup) }];
}
