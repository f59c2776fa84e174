// Parses a request path into a RequestInfo, as k8s.io/apiserver's RequestInfoFactory does.
import type { RequestInfo } from '../../apimachinery/request/context.ts';

const API_PREFIXES = new Set(['api', 'apis']);
const GROUPLESS_PREFIXES = new Set(['api']);
/** Subresources that name a namespace's own sub-path rather than a resource inside it. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

function nonResource(path: string, method: string): RequestInfo {
  return {
    isResourceRequest: false, path, verb: method.toLowerCase(), apiPrefix: '', apiGroup: '', apiVersion: '',
    namespace: '', resource: '', subresource: '', name: '', parts: [],
  };
}

/**
 * `/api/v1/namespaces/default/pods/x/status` → resource pods, subresource status, name x,
 * namespace default, verb from the method (get → list when no name; watch via ?watch or /watch/).
 */
export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  let parts = trimmed === '' ? [] : trimmed.split('/');
  if (parts.length < 3 || !API_PREFIXES.has(parts[0] ?? '')) return nonResource(path, method);
  const apiPrefix = parts[0] ?? '';
  parts = parts.slice(1);
  let apiGroup = '';
  if (!GROUPLESS_PREFIXES.has(apiPrefix)) {
    if (parts.length < 3) return nonResource(path, method); // /apis/<group>/<version>: discovery
    apiGroup = parts[0] ?? '';
    parts = parts.slice(1);
  }
  const apiVersion = parts[0] ?? '';
  parts = parts.slice(1);

  let verb: string;
  switch (method.toUpperCase()) {
    case 'POST': verb = 'create'; break;
    case 'GET': case 'HEAD': verb = 'get'; break;
    case 'PUT': verb = 'update'; break;
    case 'PATCH': verb = 'patch'; break;
    case 'DELETE': verb = 'delete'; break;
    default: verb = '';
  }
  // The deprecated /watch/ path prefix.
  if (parts[0] === 'watch') {
    parts = parts.slice(1);
    if (verb === 'get') verb = 'watch';
  }

  let namespace = '';
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      namespace = parts[1] ?? '';
      // /namespaces/<ns>/<resource>... is a resource inside the namespace; /namespaces/<ns>[/status] is the namespace.
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2] ?? '')) parts = parts.slice(2);
    }
  }
  const resource = parts[0] ?? '';
  const name = parts[1] ?? '';
  const subresource = parts.length >= 3 ? (parts[2] ?? '') : '';

  if (name === '' && verb === 'get') verb = isTrue(query.get('watch')) ? 'watch' : 'list';
  if (name === '' && verb === 'delete') verb = 'deletecollection';

  return {
    isResourceRequest: true, path, verb, apiPrefix, apiGroup, apiVersion, namespace, resource, subresource, name,
    parts,
  };
}

/** As RequestInfoFactory: any ?watch value but "false" and "0" (in any case) makes a watch. */
function isTrue(v: string | null): boolean {
  return v !== null && v !== '0' && v.toLowerCase() !== 'false';
}
