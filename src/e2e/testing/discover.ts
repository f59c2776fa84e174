// The served creatable resources, read from aggregated discovery: one case per group and
// resource, with the versions serving it, most preferred first.
// No Go counterpart: the e2e test harness.
import { expectJSON } from './objects.ts';
import type { Suite } from './suite.ts';

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

interface DiscoveryResource {
  resource: string;
  subresources?: { subresource: string; verbs: string[] }[];
  responseKind?: { group?: string; version?: string; kind?: string };
  scope: string;
  verbs: string[];
}
interface DiscoveryDocument { items: { metadata?: { name?: string }; versions: { version: string; resources: DiscoveryResource[] }[] }[] }

export interface Case {
  /** resource.group, or resource for the core group: the key of HINTS in fixtures/every-resource.ts. */
  readonly key: string;
  readonly group: string;
  readonly resource: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  /** The versions serving the resource, most preferred first, with the kind each serves. */
  readonly versions: readonly { version: string; kind: string }[];
  /** Subresources of the most preferred version with their verbs (status, scale, ...). */
  readonly subresources: readonly { subresource: string; verbs: readonly string[] }[];
}

export async function discover(suite: Pick<Suite, 'request'>): Promise<Case[]> {
  const cases = new Map<string, Case & { versions: { version: string; kind: string }[] }>();
  for (const root of ['/api', '/apis']) {
    const doc = expectJSON<DiscoveryDocument>(await suite.request({ method: 'GET', path: root, headers: { Accept: AGGREGATED } }), 200, root);
    for (const g of doc.items) {
      const group = g.metadata?.name ?? '';
      for (const v of g.versions) {
        for (const r of v.resources) {
          if (r.resource.includes('/') || !r.verbs.includes('create')) continue;
          const key = group === '' ? r.resource : `${r.resource}.${group}`;
          const kind = r.responseKind?.kind ?? '';
          const c = cases.get(key) ?? { key, group, resource: r.resource, namespaced: r.scope === 'Namespaced', verbs: r.verbs, versions: [], subresources: r.subresources ?? [] };
          c.versions.push({ version: v.version, kind });
          cases.set(key, c);
        }
      }
    }
  }
  return [...cases.values()].sort((a, b) => a.key.localeCompare(b.key));
}

export const apiVersion = (group: string, version: string): string => (group === '' ? version : `${group}/${version}`);
export const gvPath = (group: string, version: string): string => (group === '' ? `/api/${version}` : `/apis/${group}/${version}`);

