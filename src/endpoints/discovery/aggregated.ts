// Aggregated discovery (apidiscovery.k8s.io v2; v2beta1 is no longer served): every group, version and
// resource in one document, so clients need one request for /api and one for /apis.
// Counterpart of k8s.io/apiserver/pkg/endpoints/discovery/aggregated.
import type { DiscoveryGroup, DiscoveryResource, MergedGroup } from './types.ts';

function resourceDoc(main: DiscoveryResource, subs: readonly DiscoveryResource[]): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    resource: main.name,
    // As the legacy APIResource: group and version only for a kind of another group version.
    responseKind: { group: main.group ?? '', version: main.version ?? '', kind: main.kind },
    scope: main.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: main.singularName,
    verbs: main.verbs,
  };
  if (main.shortNames !== undefined && main.shortNames.length > 0) doc['shortNames'] = main.shortNames;
  if (main.categories !== undefined && main.categories.length > 0) doc['categories'] = main.categories;
  if (subs.length > 0) {
    doc['subresources'] = subs.map((s) => ({
      subresource: s.name.slice(s.name.indexOf('/') + 1),
      responseKind: { group: s.group ?? '', version: s.version ?? '', kind: s.kind },
      verbs: s.verbs,
    }));
  }
  return doc;
}

/** Groups served here, or merged with other servers' (a remote version's entry is listed as fetched). */
export function aggregatedDiscovery(groups: readonly (DiscoveryGroup | MergedGroup)[], apiVersion: string): object {
  return {
    kind: 'APIGroupDiscoveryList', apiVersion, metadata: {},
    items: groups.map((g) => ({
      // ObjectMeta's name is omitempty (the core group's entry has none), its zero creationTimestamp omitzero.
      metadata: g.name === '' ? {} : { name: g.name },
      versions: g.versions.map((v) => {
        if ('remote' in v) return v.remote ?? { version: v.version, freshness: 'Stale' };
        const mains = v.resources.filter((r) => !r.name.includes('/'));
        return {
          version: v.version,
          resources: mains.map((m) => resourceDoc(m, v.resources.filter((s) => s.name.startsWith(`${m.name}/`)))),
          freshness: 'Current',
        };
      }),
    })),
  };
}
