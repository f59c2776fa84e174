// GroupVersion, GroupVersionKind, GroupVersionResource and GroupResource, as in
// k8s.io/apimachinery/pkg/runtime/schema.

export interface GroupVersion { readonly group: string; readonly version: string }
export interface GroupVersionKind extends GroupVersion { readonly kind: string }
export interface GroupVersionResource extends GroupVersion { readonly resource: string }
export interface GroupResource { readonly group: string; readonly resource: string }
export interface GroupKind { readonly group: string; readonly kind: string }

/** "v1" for the core group, "apps/v1" otherwise: the apiVersion field value. */
export function apiVersionOf(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** apiVersion values seen so far: every object decoded from storage names one of a few. */
const parsedGroupVersions = new Map<string, GroupVersion | undefined>();
const MAX_PARSED_GROUP_VERSIONS = 1024;
const MAX_CACHED_API_VERSION_LENGTH = 320;

/** Parses an apiVersion field value. Returns undefined for malformed values. */
export function parseGroupVersion(apiVersion: string): GroupVersion | undefined {
  if (parsedGroupVersions.has(apiVersion)) return parsedGroupVersions.get(apiVersion);
  const gv = parseGroupVersionUncached(apiVersion);
  // Bounded in count and in key length: request bodies can name any apiVersion, of any size
  // up to the body limit, and real ones are short (a DNS subdomain, "/", a version).
  if (parsedGroupVersions.size < MAX_PARSED_GROUP_VERSIONS && apiVersion.length <= MAX_CACHED_API_VERSION_LENGTH) {
    parsedGroupVersions.set(apiVersion, gv);
  }
  return gv;
}

/** The longest apiVersion parseGroupVersion keeps (for tests: long ones must not be kept). */
export const cachedGroupVersionKeyLength = (): number => Math.max(0, ...[...parsedGroupVersions.keys()].map((k) => k.length));

function parseGroupVersionUncached(apiVersion: string): GroupVersion | undefined {
  if (apiVersion === '') return undefined;
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0] ?? '' };
  if (parts.length === 2 && parts[0] !== '' && parts[1] !== '') {
    return { group: parts[0] ?? '', version: parts[1] ?? '' };
  }
  return undefined;
}

/** "configmaps" or "deployments.apps": how kube names a resource in messages. */
export function formatGroupResource(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

export function gvkKey(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}/${gvk.kind}`;
}

