// What a backend's discovery documents become in the merged aggregated document. kube decodes
// them into the typed apidiscovery structs and encodes those again, so unknown fields drop out,
// the fields come in the structs' order, and a missing responseKind becomes an empty one (for old
// client-go, kubernetes/kubernetes#118361). A backend that serves only legacy discovery has its
// APIResourceList converted, subresources folded under their resources.
// Counterpart of the decoding in discoveryManager.fetchFreshDiscoveryForService
// (k8s.io/kube-aggregator/pkg/apiserver/handler_discovery.go) and ConvertGroupVersionIntoToDiscovery
// (k8s.io/apiserver/pkg/endpoints/installer.go).
import type { VersionDiscovery } from '../../endpoints/discovery/types.ts';

type JSONObject = Record<string, unknown>;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

function gvk(v: unknown): JSONObject {
  const o = isObject(v) ? v : {};
  return { group: str(o['group']), version: str(o['version']), kind: str(o['kind']) };
}

/** Sets `key` when `v` is a non-empty list (omitempty). */
function putList(out: JSONObject, key: string, v: unknown): void {
  const list = strings(v);
  if (list.length > 0) out[key] = list;
}

function subresourceDoc(s: JSONObject): JSONObject {
  const out: JSONObject = { subresource: str(s['subresource']), responseKind: gvk(s['responseKind']) };
  if (Array.isArray(s['acceptedTypes']) && s['acceptedTypes'].length > 0) out['acceptedTypes'] = (s['acceptedTypes'] as unknown[]).map(gvk);
  out['verbs'] = strings(s['verbs']);
  return out;
}

function resourceDoc(r: JSONObject): JSONObject {
  const out: JSONObject = {
    resource: str(r['resource']), responseKind: gvk(r['responseKind']), scope: str(r['scope']),
    singularResource: str(r['singularResource']), verbs: strings(r['verbs']),
  };
  putList(out, 'shortNames', r['shortNames']);
  putList(out, 'categories', r['categories']);
  const subs = Array.isArray(r['subresources']) ? r['subresources'].filter(isObject) : [];
  if (subs.length > 0) out['subresources'] = subs.map(subresourceDoc);
  return out;
}

/**
 * The group versions of an APIGroupDiscoveryList (v2 or v2beta1: the same JSON), keyed
 * `<group>/<version>`; undefined when the body is no such list.
 */
export function parseAggregatedDiscovery(body: unknown): Map<string, VersionDiscovery> | undefined {
  if (!isObject(body) || !Array.isArray(body['items'])) return undefined;
  const out = new Map<string, VersionDiscovery>();
  for (const g of body['items'].filter(isObject)) {
    const name = str(isObject(g['metadata']) ? g['metadata']['name'] : undefined);
    for (const v of (Array.isArray(g['versions']) ? g['versions'] : []).filter(isObject)) {
      const version = str(v['version']);
      const resources = (Array.isArray(v['resources']) ? v['resources'] : []).filter(isObject).map(resourceDoc);
      out.set(`${name}/${version}`, { version, ...(resources.length > 0 ? { resources } : {}) });
    }
  }
  return out;
}

/**
 * ConvertGroupVersionIntoToDiscovery: an APIResourceList's resources, as aggregated discovery
 * lists them. Throws when a subresource's scope differs from its resource's.
 */
export function convertLegacyResources(body: unknown): JSONObject[] {
  const list = isObject(body) && Array.isArray(body['resources']) ? body['resources'].filter(isObject) : [];
  const out: JSONObject[] = [];
  const parents = new Map<string, JSONObject>();
  for (const r of list) {
    const name = str(r['name']);
    if (name.includes('/')) continue;
    const doc: JSONObject = {
      resource: name, responseKind: { group: str(r['group']), version: str(r['version']), kind: str(r['kind']) },
      scope: r['namespaced'] === true ? 'Namespaced' : 'Cluster', singularResource: str(r['singularName']), verbs: strings(r['verbs']),
    };
    putList(doc, 'shortNames', r['shortNames']);
    putList(doc, 'categories', r['categories']);
    out.push(doc);
    parents.set(name, doc);
  }
  for (const r of list) {
    const name = str(r['name']);
    const slash = name.indexOf('/');
    if (slash < 0) continue;
    const parentName = name.slice(0, slash);
    let parent = parents.get(parentName);
    if (parent === undefined) {
      // A subresource without its resource still gets a (bare) parent.
      parent = { resource: parentName, responseKind: { group: '', version: '', kind: '' }, scope: r['namespaced'] === true ? 'Namespaced' : 'Cluster', singularResource: '', verbs: [] };
      out.push(parent);
      parents.set(parentName, parent);
    }
    const scope = r['namespaced'] === true ? 'Namespaced' : 'Cluster';
    if (parent['scope'] !== scope) {
      throw new Error(`Error: Parent ${parentName} (scope: ${String(parent['scope'])}) and subresource ${name.slice(slash + 1)} (scope: ${scope}) scope do not match`);
    }
    const kind = str(r['kind']);
    const sub: JSONObject = {
      subresource: name.slice(slash + 1),
      responseKind: kind === '' ? { group: '', version: '', kind: '' } : { group: str(r['group']), version: str(r['version']), kind },
      verbs: strings(r['verbs']),
    };
    const subs = (parent['subresources'] as JSONObject[] | undefined) ?? [];
    subs.push(sub);
    parent['subresources'] = subs;
  }
  return out;
}
