// The pod connect subresources (pkg/registry/core/pod/rest/subresources.go, log.go and the
// *Location functions of pod/strategy.go): exec, attach, portforward and log go to the pod's
// kubelet; proxy goes to the pod's IP.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { newBadRequest } from '../../../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../../../apimachinery/request/context.ts';
import type { ResourceStore } from '../../../../registry/rest/strategy.ts';
import type { Connecter } from '../../../../registry/rest/capabilities.ts';
import type { StoreLookup } from '../../../../registry/rest/group.ts';
import type { Pod } from '../../v1/types.ts';
import { forward, kubeletOf, kubeletUnreachable, proxyPath } from './backend.ts';
import { parsePodLogOptions, parsePortForwardPorts } from './log-options.ts';
import { unknownError } from './status.ts';

export const PROXY_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The container a request means: the named one, or the only one (validateContainer). */
export function containerFor(pod: Pod, requested: string, withInit: boolean): string {
  const name = pod.metadata.name ?? '';
  const all = [...pod.spec.containers, ...(pod.spec.initContainers ?? []), ...(pod.spec.ephemeralContainers ?? [])];
  if (requested !== '') {
    if (!all.some((c) => c.name === requested)) throw newBadRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  const containers = pod.spec.containers;
  if (containers.length === 1) return containers[0]?.name ?? '';
  if (containers.length === 0) throw newBadRequest(`a container name must be specified for pod ${name}`);
  let msg = `a container name must be specified for pod ${name}, choose one of: [${containers.map((c) => c.name).join(' ')}]`;
  const init = pod.spec.initContainers ?? [];
  if (withInit && init.length > 0) msg += ` or one of the init containers: [${init.map((c) => c.name).join(' ')}]`;
  throw newBadRequest(msg);
}

const isUpgrade = (req: IncomingMessage): boolean =>
  (req.headers.connection ?? '').toLowerCase().split(',').some((t) => t.trim() === 'upgrade') && req.headers.upgrade !== undefined;

/** exec, attach, portforward: a streaming upgrade to the kubelet (streamLocation + UpgradeAwareHandler). */
function streamREST(pods: ResourceStore<KubeObject>, lookup: StoreLookup, container: boolean): Connecter {
  return {
    connectMethods: ['GET', 'POST'],
    async connect(ctx: RequestContext, name, req, _res, query) {
      // The options decode before anything is read (connect's getRequestOptions).
      if (!container) parsePortForwardPorts(query);
      const pod = await pods.get(ctx, name, {}) as Pod;
      if (container) containerFor(pod, query.get('container') ?? '', false);
      const nodeName = pod.spec.nodeName ?? '';
      if (nodeName === '') throw newBadRequest(`pod ${name} does not have a host assigned`);
      const kubelet = await kubeletOf(ctx, lookup, nodeName);
      if (!isUpgrade(req)) throw newBadRequest('Upgrade request required');
      throw await kubeletUnreachable(kubelet, (e) => unknownError(`error dialing backend: ${e}`));
    },
  };
}

/** pods/log (LogLocation + LocationStreamer): served with verb get. */
function logREST(pods: ResourceStore<KubeObject>, lookup: StoreLookup): Connecter {
  return {
    connectMethods: ['GET'],
    async connect(ctx: RequestContext, name, _req, res: ServerResponse, query) {
      // Options are decoded and validated before the pod is read (LogREST.Get).
      parsePodLogOptions(query, name);
      const pod = await pods.get(ctx, name, {}) as Pod;
      const container = containerFor(pod, query.get('container') ?? '', true);
      const nodeName = pod.spec.nodeName ?? '';
      if (nodeName === '') {
        // No host yet: kube's LocationStreamer has no location and its stream writer answers 204.
        res.writeHead(204);
        res.end();
        return;
      }
      const kubelet = await kubeletOf(ctx, lookup, nodeName);
      const url = `https://${kubelet.host.includes(':') ? `[${kubelet.host}]` : kubelet.host}:${kubelet.port}/containerLogs/${ctx.namespace}/${name}/${container}`;
      throw await kubeletUnreachable(kubelet, (e) => unknownError(`Get "${url}": ${e}`));
    },
  };
}

/** Splits `[scheme:]name[:port]` (utilnet.SplitSchemeNamePort). */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name = '';
  let port = '';
  if (parts.length === 1) name = parts[0] ?? '';
  else if (parts.length === 2) { name = parts[0] ?? ''; port = parts[1] ?? ''; }
  else if (parts.length === 3) { scheme = parts[0] ?? ''; name = parts[1] ?? ''; port = parts[2] ?? ''; }
  else return undefined;
  if (name === '' || (scheme !== '' && scheme !== 'http' && scheme !== 'https')) return undefined;
  return { scheme, name, port };
}

/** An address the proxy may reach: a global unicast IP (no loopback, link-local, multicast, unspecified). */
function isGlobalUnicast(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return !(a === 0 || a === 127 || a >= 224 || (a === 169 && b === 254)) && ip !== '255.255.255.255';
  }
  if (v === 6) {
    const l = ip.toLowerCase();
    return !(l === '::' || l === '::1' || l.startsWith('fe8') || l.startsWith('fe9') || l.startsWith('fea') || l.startsWith('feb') || l.startsWith('ff'));
  }
  return false;
}

/** pods/proxy: to the pod's IP and the named or first declared port (pod ResourceLocation). */
function proxyREST(pods: ResourceStore<KubeObject>): Connecter {
  return {
    connectMethods: PROXY_METHODS,
    async connect(ctx: RequestContext, id, req, res, query) {
      const parsed = splitSchemeNamePort(id);
      if (parsed === undefined) throw newBadRequest(`invalid pod request "${id}"`);
      const pod = await pods.get(ctx, parsed.name, {}) as Pod;
      let port = parsed.port;
      if (port === '') port = String(pod.spec.containers.find((c) => (c.ports ?? []).length > 0)?.ports?.[0]?.containerPort ?? '');
      const ip = pod.status?.podIPs?.[0]?.ip ?? pod.status?.podIP ?? '';
      if (!isGlobalUnicast(ip)) throw newBadRequest('address not allowed');
      const scheme = parsed.scheme === 'https' ? 'https' : 'http';
      const portNum = port === '' ? (scheme === 'https' ? 443 : 80) : Number(port);
      await forward({ scheme, host: ip, port: portNum }, proxyPath(ctx, req), query, req, res);
    },
  };
}

/** The connect subresources of pods, by name. */
export function podConnecters(pods: ResourceStore<KubeObject>, lookup: StoreLookup): Record<string, Connecter> {
  return {
    attach: streamREST(pods, lookup, true),
    exec: streamREST(pods, lookup, true),
    portforward: streamREST(pods, lookup, false),
    log: logREST(pods, lookup),
    proxy: proxyREST(pods),
  };
}
