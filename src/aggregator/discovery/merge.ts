// Discovery of the whole server chain, as the aggregator serves it. Legacy /apis lists the group
// version of every APIService (served here or not, available or not), apiregistration.k8s.io
// first; aggregated /apis lists what this server serves and, for each APIService with a service,
// what its backend serves (a backend's entry wins over a local one of the same group version).
// Both are ordered by the APIServices' priorities; a local group version without an APIService
// yet (a CRD a moment old) takes `fallback`'s.
// Counterpart of apisHandler and apiGroupHandler (k8s.io/kube-aggregator/pkg/apiserver/handler_apis.go)
// and of the merging in resourceDiscoveryManager (k8s.io/apiserver/pkg/endpoints/discovery/aggregated).
import type { DiscoveryGroup, DiscoveryMerge, MergedGroup, MergedVersion } from '../../endpoints/discovery/types.ts';
import type { DiscoveryManager } from './manager.ts';
import { aggregatedOrder, APIREGISTRATION_PRIORITY, DEFAULT_PRIORITY, legacyOrder, type PrioritizedGroupVersion, type Priority } from './order.ts';

const APIREGISTRATION_GROUP = 'apiregistration.k8s.io';

/** The priorities a served group version has without an APIService (undefined: kube's default). */
export type FallbackPriority = (group: string, version: string) => Priority | undefined;

type Entry = PrioritizedGroupVersion & { readonly merged: MergedVersion };

function toGroups(ordered: readonly Entry[][]): MergedGroup[] {
  return ordered.map((vs) => ({ name: vs[0]?.group ?? '', versions: vs.map((v) => v.merged) }));
}

export class AggregatorDiscovery implements DiscoveryMerge {
  constructor(private readonly manager: Pick<DiscoveryManager, 'apiServices' | 'priority' | 'remoteEntries'>,
    private readonly fallback: FallbackPriority = () => undefined) {}

  private priorityOf(group: string, version: string): Priority {
    if (group === APIREGISTRATION_GROUP) return APIREGISTRATION_PRIORITY;
    return this.manager.priority(group, version) ?? this.fallback(group, version) ?? DEFAULT_PRIORITY;
  }

  private localEntries(local: readonly DiscoveryGroup[]): Map<string, Entry> {
    const out = new Map<string, Entry>();
    for (const g of local) {
      for (const v of g.versions) {
        const p = this.priorityOf(g.name, v.version);
        out.set(`${g.name}/${v.version}`, { group: g.name, version: v.version, groupPriorityMinimum: p.groupPriorityMinimum, versionPriority: p.versionPriority, merged: v });
      }
    }
    return out;
  }

  legacy(local: readonly DiscoveryGroup[]): readonly MergedGroup[] {
    const entries = this.localEntries(local);
    for (const s of this.manager.apiServices()) {
      const key = `${s.group}/${s.version}`;
      if (s.group === '' || entries.has(key)) continue;
      entries.set(key, { ...s, merged: { version: s.version, remote: undefined } });
    }
    return toGroups(legacyOrder([...entries.values()]));
  }

  aggregated(local: readonly DiscoveryGroup[]): readonly MergedGroup[] {
    const entries = this.localEntries(local);
    for (const e of this.manager.remoteEntries()) {
      if (e.group === '') continue;
      entries.set(`${e.group}/${e.version}`, { ...e, merged: { version: e.version, remote: e.discovery } });
    }
    return toGroups(aggregatedOrder([...entries.values()]));
  }
}
