// Legacy discovery documents: APIVersions (/api), APIGroupList (/apis), APIGroup
// (/apis/<g>) and APIResourceList (/api/v1, /apis/<g>/<v>).
// Counterpart of k8s.io/apiserver/pkg/endpoints/discovery.
import { createHash } from 'node:crypto';
import type { DiscoveryGroupVersion, DiscoveryResource } from './types.ts';

/** What APIGroup lists of a group: its name and versions, most preferred first. */
interface GroupVersions { readonly name: string; readonly versions: readonly { readonly version: string }[] }

/** base64(sha256("<group>/<version>/<Kind>")[:8]) of the storage version, as kube computes it. */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

const gvString = (group: string, version: string): string => (group === '' ? version : `${group}/${version}`);

export function apiVersions(serverAddress: string): object {
  return {
    kind: 'APIVersions', versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

export function apiGroup(g: GroupVersions): object {
  const versions = g.versions.map((v) => ({ groupVersion: gvString(g.name, v.version), version: v.version }));
  return { kind: 'APIGroup', apiVersion: 'v1', name: g.name, versions, preferredVersion: versions[0] };
}

export function apiGroupList(groups: readonly GroupVersions[]): object {
  return {
    kind: 'APIGroupList', apiVersion: 'v1',
    groups: groups.map((g) => {
      const { kind: _k, apiVersion: _a, ...rest } = apiGroup(g) as Record<string, unknown>;
      return rest;
    }),
  };
}

function resourceEntry(r: DiscoveryResource): Record<string, unknown> {
  const e: Record<string, unknown> = { name: r.name, singularName: r.singularName, namespaced: r.namespaced };
  if (r.group !== undefined) e['group'] = r.group;
  if (r.version !== undefined) e['version'] = r.version;
  e['kind'] = r.kind;
  e['verbs'] = r.verbs;
  if (r.shortNames !== undefined && r.shortNames.length > 0) e['shortNames'] = r.shortNames;
  if (r.categories !== undefined && r.categories.length > 0) e['categories'] = r.categories;
  if (r.storageVersionHash !== undefined) e['storageVersionHash'] = r.storageVersionHash;
  return e;
}

/**
 * The core group's (and extensions') document is written through kube's stripVersion encoder
 * (keepUnversioned), so it carries no apiVersion.
 */
export function apiResourceList(gv: DiscoveryGroupVersion): object {
  const unversioned = gv.group === '' || gv.group === 'extensions';
  return {
    kind: 'APIResourceList', ...(unversioned ? {} : { apiVersion: 'v1' }), groupVersion: gvString(gv.group, gv.version),
    resources: gv.resources.map(resourceEntry),
  };
}
