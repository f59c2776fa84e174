// nodes/proxy (pkg/registry/core/node/rest/proxy.go + node ResourceLocation): to the node's
// kubelet, or to another port of the node over http.
import { newBadRequest } from '../../../apimachinery/errors/status-error.ts';
import type { RequestContext } from '../../../apimachinery/request/context.ts';
import type { Connecter } from '../../../registry/rest/capabilities.ts';
import type { StoreLookup, SubresourceREST } from '../../../registry/rest/group.ts';
import { forward, kubeletOf, proxyPath } from '../pod/subresources/backend.ts';
import { PROXY_METHODS, splitSchemeNamePort } from '../pod/subresources/connect.ts';

function nodeProxyREST(lookup: StoreLookup): Connecter {
  return {
    connectMethods: PROXY_METHODS,
    async connect(ctx: RequestContext, id, req, res, query) {
      const parsed = splitSchemeNamePort(id);
      if (parsed === undefined) throw newBadRequest(`invalid node request "${id}"`);
      const kubelet = await kubeletOf(ctx, lookup, parsed.name);
      const toKubelet = parsed.port === '' || Number(parsed.port) === kubelet.port;
      const target = toKubelet
        ? { scheme: 'https' as const, host: kubelet.host, port: kubelet.port }
        : { scheme: parsed.scheme === 'https' ? 'https' as const : 'http' as const, host: kubelet.host, port: Number(parsed.port) };
      await forward(target, proxyPath(ctx, req), query, req, res);
    },
  };
}

export function nodeSubresources(lookup: StoreLookup): SubresourceREST[] {
  return [{ name: 'proxy', kind: 'NodeProxyOptions', storage: nodeProxyREST(lookup) }];
}
