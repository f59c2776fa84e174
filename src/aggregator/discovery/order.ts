// The order of groups and versions in discovery, from APIService priorities. Legacy discovery
// (/apis) sorts APIServices by groupPriorityMinimum (highest first) then by name, a group
// standing where its first APIService falls; aggregated discovery sorts groups by the highest
// groupPriorityMinimum of their versions, then by group name. Within a group both put the highest
// versionPriority first, then the kube-aware greater version.
// Counterpart of SortedByGroupAndVersion (k8s.io/kube-aggregator/pkg/apis/apiregistration/v1/helper) and
// the sorting of resourceDiscoveryManager.calculateAPIGroupsLocked
// (k8s.io/apiserver/pkg/endpoints/discovery/aggregated/handler.go).
import { compareKubeAwareVersions } from '../../apimachinery/util/version-order.ts';

/** An APIService's priorities, or those a served group version is given without one. */
export interface Priority {
  readonly groupPriorityMinimum: number;
  readonly versionPriority: number;
}

export interface PrioritizedGroupVersion extends Priority {
  readonly group: string;
  readonly version: string;
}

/**
 * The priority kube's resource manager gives a group version nobody set one for; also the
 * apiregistration group's (20001: above any APIService, so it is listed first).
 */
export const DEFAULT_PRIORITY: Priority = { groupPriorityMinimum: 1000, versionPriority: 15 };
export const APIREGISTRATION_PRIORITY: Priority = { groupPriorityMinimum: 20001, versionPriority: 0 };

/** ByVersionPriority: negative when a comes first. */
export function compareVersions(a: Pick<PrioritizedGroupVersion, 'version' | 'versionPriority'>, b: Pick<PrioritizedGroupVersion, 'version' | 'versionPriority'>): number {
  if (a.versionPriority !== b.versionPriority) return b.versionPriority - a.versionPriority;
  return compareKubeAwareVersions(a.version, b.version);
}

const apiServiceName = (gv: PrioritizedGroupVersion): string => `${gv.version}.${gv.group}`;

function byVersions<T extends PrioritizedGroupVersion>(groups: Map<string, T[]>): T[][] {
  return [...groups.values()].map((vs) => vs.sort(compareVersions));
}

/** SortedByGroupAndVersion: the group versions grouped, in legacy discovery's order. */
export function legacyOrder<T extends PrioritizedGroupVersion>(gvs: readonly T[]): T[][] {
  const sorted = [...gvs].sort((a, b) => {
    if (a.groupPriorityMinimum !== b.groupPriorityMinimum) return b.groupPriorityMinimum - a.groupPriorityMinimum;
    const an = apiServiceName(a);
    const bn = apiServiceName(b);
    return an < bn ? -1 : an > bn ? 1 : 0;
  });
  const groups = new Map<string, T[]>();
  for (const gv of sorted) {
    const list = groups.get(gv.group);
    if (list === undefined) groups.set(gv.group, [gv]); else list.push(gv);
  }
  return byVersions(groups);
}

/** The order of aggregated discovery: by the group's highest groupPriorityMinimum, then its name. */
export function aggregatedOrder<T extends PrioritizedGroupVersion>(gvs: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  const top = new Map<string, number>();
  for (const gv of gvs) {
    const list = groups.get(gv.group);
    if (list === undefined) groups.set(gv.group, [gv]); else list.push(gv);
    top.set(gv.group, Math.max(top.get(gv.group) ?? Number.NEGATIVE_INFINITY, gv.groupPriorityMinimum));
  }
  return byVersions(groups).sort((a, b) => {
    const ag = a[0]?.group ?? '';
    const bg = b[0]?.group ?? '';
    const ap = top.get(ag) ?? 0;
    const bp = top.get(bg) ?? 0;
    if (ap !== bp) return bp - ap;
    return ag < bg ? -1 : ag > bg ? 1 : 0;
  });
}
