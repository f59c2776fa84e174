// /openapi/v2 and /openapi/v3 for exactly what the installer serves, merged with what the
// backends of APIServices serve (the aggregator's OpenAPI controllers): their v2 specs joined to
// this server's, their v3 documents listed in the index and proxied to them.
// Counterpart of k8s.io/apiserver/pkg/server/routes/openapi.go and the handlers the
// kube-aggregator's openapi and openapiv3 controllers register.
import type { OpenAPIAggregationController } from '../aggregator/openapi/controller.ts';
import { mergeSpecs } from '../aggregator/openapi/merge-v2.ts';
import type { BackendClients } from '../aggregator/proxy/backend.ts';
import { proxyRequest } from '../aggregator/proxy/handler.ts';
import type { APIInstaller } from '../endpoints/installer.ts';
import { OpenAPIService } from '../endpoints/openapi/service.ts';
import type { ServedResource } from '../endpoints/openapi/served.ts';
import type { NonResourceHandler } from '../server/generic-server.ts';
import { isConnecter } from '../registry/rest/capabilities.ts';

export function servedResources(installer: APIInstaller): ServedResource[] {
  const mains = new Map<string, ServedResource & { subresources: ServedResource['subresources'] & object[] }>();
  const eps = [...installer.allEndpoints()];
  for (const ep of eps) {
    if (ep.subresource !== '') continue;
    mains.set(`${ep.groupVersion.group}/${ep.groupVersion.version}/${ep.resource}`, {
      group: ep.groupVersion.group, version: ep.groupVersion.version, resource: ep.resource, kind: ep.kind,
      namespaced: ep.namespaced, verbs: ep.verbs, subresources: [],
      deleteReturnsObject: ep.definition.returnDeletedObject === true,
    });
  }
  for (const ep of eps) {
    if (ep.subresource === '') continue;
    // A connecter (exec, attach, portforward, proxy) is published as kube routes it: one
    // "connect" operation per HTTP method, not the get/create verbs discovery lists. pods/log,
    // which kapi streams as a connecter, is a Getter in kube ("read log of the specified Pod").
    const connect = isConnecter(ep.storage) && ep.subresource !== 'log' ? { verbs: ['connect'], connectMethods: ep.storage.connectMethods } : { verbs: ep.verbs };
    mains.get(`${ep.groupVersion.group}/${ep.groupVersion.version}/${ep.resource}`)?.subresources
      .push({ name: ep.subresource, kind: ep.kind, ...connect,
        ...(ep.kindGroupVersion !== ep.groupVersion ? { group: ep.kindGroupVersion.group, version: ep.kindGroupVersion.version } : {}) });
  }
  return [...mains.values()];
}

/** Resources served beyond the installer's (custom resources), which change at run time. */
export interface ExtraServedResources {
  servedResources(): ServedResource[];
  onChange(listener: () => void): unknown;
}

/** The aggregator's part: the backends' specs, and how their v3 documents are reached. */
export interface OpenAPIAggregationSource {
  readonly controller: Pick<OpenAPIAggregationController, 'v2Specs' | 'v3Paths' | 'v3Owner' | 'onChange'>;
  readonly clients: BackendClients;
}

export function openAPIHandlers(installer: APIInstaller, extra?: ExtraServedResources, aggregation?: OpenAPIAggregationSource): [string, NonResourceHandler][] {
  const builtIn = servedResources(installer);
  const service = new OpenAPIService(extra === undefined ? builtIn : [...builtIn, ...extra.servedResources()]);
  extra?.onChange(() => service.update([...builtIn, ...extra.servedResources()]));
  if (aggregation !== undefined) {
    const { controller } = aggregation;
    service.setAggregation({
      mergeV2: (local) => {
        const specs = controller.v2Specs();
        if (specs.length === 0) return local;
        const merged = structuredClone(local);
        for (const s of specs) mergeSpecs(merged, s);
        return merged;
      },
      v3Paths: () => controller.v3Paths(),
    });
    controller.onChange(() => service.aggregationChanged());
  }
  const handler: NonResourceHandler = async (req, res, state) => {
    const name = state.path.startsWith('/openapi/v3/') ? state.path.slice('/openapi/v3/'.length) : '';
    const owner = name === '' || aggregation === undefined ? undefined : aggregation.controller.v3Owner(name);
    if (owner !== undefined && aggregation !== undefined && !service.v3Names().includes(name)) {
      // A backend's document: the request goes to it as it came (its hash, its caching headers).
      await proxyRequest(aggregation.clients, { name, spec: owner.backend, available: true }, req, res, state);
      return;
    }
    const out = await service.handle({
      method: req.method ?? 'GET', path: state.path, query: state.url.searchParams,
      accept: req.headers.accept, acceptEncoding: req.headers['accept-encoding'],
      ifNoneMatch: req.headers['if-none-match'], ifModifiedSince: req.headers['if-modified-since'],
    });
    if (out === undefined) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.statusCode = out.status;
    for (const [k, v] of Object.entries(out.headers)) res.setHeader(k, v);
    res.end(out.body);
  };
  return [['/openapi/v2', handler], ['/openapi/v3', handler], ['/openapi/v3/', handler]];
}
