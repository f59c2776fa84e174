// Reaching what a connect subresource talks to: a kubelet (exec, attach, portforward, log,
// nodes/proxy) or a pod or service address (proxy). kapi runs no kubelets, so these mostly
// answer as kube-apiserver does when the other end cannot be reached.
// Counterpart of pkg/registry/core/pod/strategy.go (ResourceLocation, LogLocation) and
// pkg/registry/core/node (ResourceLocation).
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { newNotFound, newServiceUnavailable, type StatusError } from '../../../../apimachinery/errors/status-error.ts';
import type { RequestContext } from '../../../../apimachinery/request/context.ts';
import { systemContext } from '../../../../apimachinery/request/context.ts';
import type { StoreLookup } from '../../../../registry/rest/group.ts';
import type { Node } from '../../v1/types.ts';
import { unknownError } from './status.ts';

export interface HostPort { readonly host: string; readonly port: number }

/** --kubelet-preferred-address-types' default order. */
const PREFERRED_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];
const DEFAULT_KUBELET_PORT = 10250;

/** The kubelet of node `name` (GetConnectionInfo): 404 when the Node object is missing. */
export async function kubeletOf(ctx: RequestContext, lookup: StoreLookup, name: string): Promise<HostPort> {
  const nodes = lookup('nodes');
  if (nodes === undefined) throw newNotFound({ group: '', resource: 'nodes' }, name);
  const node = await nodes.get(systemContext('', ctx.signal), name, {}) as Node;
  const addresses = node.status?.addresses ?? [];
  let host: string | undefined;
  for (const t of PREFERRED_ADDRESS_TYPES) {
    host = addresses.find((a) => a.type === t)?.address;
    if (host !== undefined) break;
  }
  if (host === undefined) {
    throw unknownError(`no preferred addresses found; known addresses: [${addresses.map((a) => `{${a.type} ${a.address}}`).join(' ')}]`);
  }
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port ?? 0;
  return { host, port: port > 0 ? port : DEFAULT_KUBELET_PORT };
}

const joinHostPort = (hp: HostPort): string => (hp.host.includes(':') ? `[${hp.host}]:${hp.port}` : `${hp.host}:${hp.port}`);

/** A Node socket error in the words of Go's net.Dial (`dial tcp 10.0.0.1:10250: connect: connection refused`). */
export function dialErrorText(hp: HostPort, err: unknown): string {
  const code = (err as { code?: string }).code ?? '';
  const where = `dial tcp ${joinHostPort(hp)}`;
  switch (code) {
    case 'ECONNREFUSED': return `${where}: connect: connection refused`;
    case 'EHOSTUNREACH': return `${where}: connect: no route to host`;
    case 'ENETUNREACH': return `${where}: connect: network is unreachable`;
    case 'ETIMEDOUT': return `${where}: i/o timeout`;
    case 'ENOTFOUND': case 'EAI_AGAIN': return `dial tcp: lookup ${hp.host}: no such host`;
    default: return `${where}: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** Opens and closes a TCP connection; resolves the Go-worded error, or undefined when it connected. */
export function probeDial(hp: HostPort, timeoutMs = 5000): Promise<string | undefined> {
  return new Promise((resolve) => {
    const sock = connect({ host: hp.host, port: hp.port });
    const done = (text: string | undefined): void => { sock.destroy(); resolve(text); };
    sock.setTimeout(timeoutMs, () => done(dialErrorText(hp, Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' }))));
    sock.once('connect', () => done(undefined));
    sock.once('error', (err) => done(dialErrorText(hp, err)));
  });
}

/** What the kubelet-facing subresources answer when the kubelet cannot be dialled (or spoken to). */
export async function kubeletUnreachable(hp: HostPort, what: (dialError: string) => StatusError): Promise<StatusError> {
  const dialError = await probeDial(hp);
  // kapi holds no kubelet client credentials: a kubelet that answers still cannot be used
  return what(dialError ?? `${joinHostPort(hp)}: kapi has no kubelet client configured`);
}

/** The proxy transport's failure: 503 `error trying to reach service: <dial error>`. */
/** RFC 7230's hop-by-hop headers (Go's httputil.ReverseProxy list). */
const HOP_BY_HOP = new Set(['connection', 'proxy-connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export const proxyUnreachable = (dialError: string): StatusError => newServiceUnavailable(`error trying to reach service: ${dialError}`);

/** The path after `<resource>/<name>/proxy` of a proxy request (RequestInfo.parts beyond the subresource). */
export function proxyPath(ctx: RequestContext, req: IncomingMessage): string {
  const rest = ctx.info.parts.slice(3).join('/');
  const trailing = (req.url ?? '').split('?')[0]?.endsWith('/') === true && rest !== '' ? '/' : '';
  return `/${rest}${trailing}`;
}

/**
 * Forwards the request to `target` (http or https) and streams the answer back. Rejects with the
 * 503 of an unreachable backend before anything is written.
 */
export function forward(target: HostPort & { scheme: 'http' | 'https' }, path: string, query: URLSearchParams,
  req: IncomingMessage, res: ServerResponse): Promise<void> {
  const search = query.toString();
  // Without HTTP/2's pseudo-headers (:method, :path, ...), which are the request line.
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !k.startsWith(':')));
  delete headers['authorization'];
  delete headers['host'];
  return new Promise((resolve, reject) => {
    const send = target.scheme === 'https' ? httpsRequest : httpRequest;
    const out = send({
      host: target.host, port: target.port, method: req.method ?? 'GET', path: `${path}${search === '' ? '' : `?${search}`}`,
      headers, ...(target.scheme === 'https' ? { rejectUnauthorized: false } : {}),
    }, (answer) => {
      // Hop-by-hop headers stay on the backend's connection, as Go's reverse proxy drops them
      // (a backend's Connection: close must not close the client's connection).
      const named = new Set((answer.headers.connection ?? '').split(',').map((t) => t.trim().toLowerCase()));
      res.writeHead(answer.statusCode ?? 502, Object.fromEntries(Object.entries(answer.headers)
        .filter(([k]) => !HOP_BY_HOP.has(k) && !named.has(k))));
      answer.pipe(res);
      answer.once('end', () => resolve());
      answer.once('error', () => resolve());
    });
    out.once('error', (err) => {
      if (res.headersSent) { res.destroy(); resolve(); return; }
      reject(proxyUnreachable(dialErrorText(target, err)));
    });
    req.pipe(out);
  });
}
