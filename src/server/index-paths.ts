// The path index (routes.Index: `GET /` and `/index.html` list the served paths) and the last
// handler of the chain (notfoundhandler), with kube's two kinds of 404.
import type { ServerResponse } from 'node:http';
import { newPathNotFound } from '../apimachinery/errors/status-error.ts';
import { writeError, writeRaw } from '../endpoints/handlers/response.ts';
import type { RequestState } from '../endpoints/request/state.ts';

export interface IndexSources {
  /** Every group served (built-in, custom, and APIServices'), with its versions. */
  readonly groups: readonly { readonly name: string; readonly versions: readonly { readonly version: string }[] }[];
  /** The names of the /healthz, /livez and /readyz checks. */
  readonly healthz: readonly string[];
  readonly livez: readonly string[];
  readonly readyz: readonly string[];
  /** The non-resource paths (exact, or prefixes ending in '/'), e.g. /openapi/v2, /openapi/v3/. */
  readonly nonResource: Iterable<string>;
}

/**
 * What kube's PathRecorderMux lists: the discovery paths of every group version (the aggregator
 * registers /apis/<group> and /apis/<group>/<version> for every APIService, custom resource
 * groups included), each health endpoint and check, /version and the other non-resource paths,
 * sorted as Go sorts strings. Paths kapi does not serve (/metrics, /statusz, /flagz, the
 * service account issuer discovery) are not listed.
 */
export function listedPaths(s: IndexSources): string[] {
  const paths = new Set<string>(['/api', '/apis', '/apis/', '/version', ...s.nonResource]);
  for (const g of s.groups) {
    const base = g.name === '' ? '/api' : `/apis/${g.name}`;
    if (g.name !== '') paths.add(base);
    for (const v of g.versions) paths.add(`${base}/${v.version}`);
  }
  for (const [kind, checks] of [['healthz', s.healthz], ['livez', s.livez], ['readyz', s.readyz]] as const) {
    paths.add(`/${kind}`);
    for (const c of checks) paths.add(`/${kind}/${c}`);
  }
  return [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Go's http.NotFound: what kube answers for a path no handler of the chain claims. */
function writeGoNotFound(res: ServerResponse, state?: RequestState): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  writeRaw(res, 404, 'text/plain; charset=utf-8', '404 page not found\n', state);
}

/**
 * The 404 for a path nothing serves. go-restful answers paths under its web services' roots
 * (/api..., /apis/<built-in group>..., /version) with a Status; everything else reaches the
 * NotFound handler at the end of the delegation chain, which writes Go's plain text.
 */
export function writeNotFound(res: ServerResponse, state: RequestState, builtinGroups: ReadonlySet<string>): void {
  const p = state.path;
  const group = /^\/apis\/([^/]+)/.exec(p)?.[1];
  const restful = p === '/api' || p.startsWith('/api/') || p === '/version' || p.startsWith('/version/')
    || (group !== undefined && builtinGroups.has(group));
  if (restful) writeError(res, newPathNotFound(), undefined, state);
  else writeGoNotFound(res, state);
}
