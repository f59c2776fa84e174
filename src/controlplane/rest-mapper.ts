// A RESTMapper over the served discovery (built-in groups and custom resources): the resources
// of a kind in a group version, as kube's admission gets from its discovery-backed mapper.
// Counterpart of k8s.io/client-go/restmapper (DeferredDiscoveryRESTMapper), as the gc admission plugin uses it.
import type { DiscoveryGroup } from '../endpoints/discovery/types.ts';
import type { RESTMapper, RESTMapping } from '../admission/plugins/owner-references.ts';

export function discoveryRESTMapper(groups: () => readonly DiscoveryGroup[]): RESTMapper {
  return (group, kind, version) => {
    const out: RESTMapping[] = [];
    for (const g of groups()) {
      if (g.name !== group) continue;
      for (const v of g.versions) {
        if (version !== '' && v.version !== version) continue;
        for (const r of v.resources) {
          if (r.kind === kind && !r.name.includes('/')) out.push({ group, version: v.version, resource: r.name, namespaced: r.namespaced });
        }
      }
    }
    if (out.length > 0) return out;
    // NoKindMatchError's text.
    throw new Error(version === '' ? `no matches for kind "${kind}" in group "${group}"`
      : `no matches for kind "${kind}" in version "${group === '' ? version : `${group}/${version}`}"`);
  };
}
