// Anonymous requests (request/anonymous) and the paths that kube's bootstrap RBAC policy opens to
// them through the system:public-info-viewer ClusterRole.
// Counterpart of k8s.io/apiserver/pkg/authentication/request/anonymous.
import { ALL_UNAUTHENTICATED_GROUP, ANONYMOUS_USER, type AuthResponse, type Authenticator } from './authenticator.ts';

const ANONYMOUS: AuthResponse = { user: { name: ANONYMOUS_USER, groups: [ALL_UNAUTHENTICATED_GROUP] } };

/** Every request is system:anonymous in group system:unauthenticated. Put it last in the chain. */
export function newAnonymousAuthenticator(): Authenticator {
  return { authenticate: () => Promise.resolve(ANONYMOUS) };
}

/**
 * The nonResourceURLs of system:public-info-viewer. The match is exact, as RBAC's is for URLs
 * without a trailing `*`: `/healthz/etcd` is not public in kube.
 */
export const PUBLIC_INFO_PATHS: readonly string[] = ['/healthz', '/livez', '/readyz', '/version', '/version/'];

/**
 * Whether kube lets an anonymous request through to `path` (the path without its query).
 * Only GET is granted (the verb of a non-resource request is the lower-cased method).
 */
export function isAnonymousAllowedPath(path: string, method = 'GET'): boolean {
  return method.toUpperCase() === 'GET' && PUBLIC_INFO_PATHS.includes(path);
}
