// The Go type kube names in the 406 of a transform that does not fit its result: the `%T` of the
// internal object (the handlers transform the internal version), `*apps.DeploymentList`, or the
// unstructured types of a custom resource.
// Counterpart of the %T in k8s.io/apiserver/pkg/endpoints/handlers/response.go (asPartialObjectMetadata).
import { servesTypedObjects, type HandlerDeps, type ResourceEndpoint } from './scope.ts';

/** Groups whose internal Go package is not named after the group's first label. */
const GO_PACKAGES: Readonly<Record<string, string>> = { '': 'core', 'internal.apiserver.k8s.io': 'apiserverinternal', 'events.k8s.io': 'core' };

/** The `%T` of the internal object kube transforms: `*apps.DeploymentList`, `*unstructured.Unstructured`. */
export function goTypeName(ep: ResourceEndpoint, deps: HandlerDeps, list: boolean): string {
  if (!servesTypedObjects(deps)) return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  const group = ep.kindGroupVersion.group;
  const pkg = GO_PACKAGES[group] ?? group.split('.')[0] ?? group;
  return `*${pkg}.${ep.kind}${list ? 'List' : ''}`;
}
