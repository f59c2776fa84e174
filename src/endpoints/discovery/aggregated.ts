// Aggregated discovery (apidiscovery.k8s.io v2; v2beta1 is no longer served): every group, version and
// resource in one document, so clients need one request for /api and one for /apis.
import type { DiscoveryGroup, DiscoveryResource } from './types.ts';

function resourceDoc(gv: { group: string; version: string }, main: DiscoveryResource,
  subs: readonly DiscoveryResource[]): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    resource: main.name,
    responseKind: { group: main.group ?? gv.group, version: main.version ?? gv.version, kind: main.kind },
    scope: main.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: main.singularName,
    verbs: main.verbs,
  };
  if (main.shortNames !== undefined && main.shortNames.length > 0) doc['shortNames'] = main.shortNames;
  if (main.categories !== undefined && main.categories.length > 0) doc['categories'] = main.categories;
  if (subs.length > 0) {
    doc['subresources'] = subs.map((s) => ({
      subresource: s.name.slice(s.name.indexOf('/') + 1),
      responseKind: { group: s.group ?? gv.group, version: s.version ?? gv.version, kind: s.kind },
      verbs: s.verbs,
    }));
  }
  return doc;
}

export function aggregatedDiscovery(groups: readonly DiscoveryGroup[], apiVersion: string): object {
  return {
    kind: 'APIGroupDiscoveryList', apiVersion, metadata: {},
    items: groups.map((g) => ({
      // ObjectMeta's name is omitempty: the core group's entry has none.
      metadata: { ...(g.name === '' ? {} : { name: g.name }), creationTimestamp: null },
      versions: g.versions.map((v) => {
        const mains = v.resources.filter((r) => !r.name.includes('/'));
        return {
          version: v.version,
          resources: mains.map((m) => resourceDoc(v, m, v.resources.filter((s) => s.name.startsWith(`${m.name}/`)))),
          freshness: 'Current',
        };
      }),
    })),
  };
}
