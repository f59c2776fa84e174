// OpenAPI documents of what the server serves. Counterpart of k8s.io/kube-openapi/pkg/builder,
// k8s.io/kube-openapi/pkg/builder3 and k8s.io/kube-openapi/pkg/handler.
export { groupVersionPath, type GroupVersionKey, type ServedResource, type ServedSubresource } from './served.ts';
export {
  buildOpenAPIV2, buildOpenAPIV3GroupVersion, buildOpenAPIV3Index, openAPIV3DocumentNames, type OpenAPIOptions,
} from './documents.ts';
export { operationGroupVersion, operationTag, resourcePaths, toValidOperationID, type OperationSpec, type PathSpec } from './operations.ts';
export {
  computeETag, OpenAPIService, type OpenAPIDocument, type OpenAPIRequest, type OpenAPIResponse,
} from './service.ts';
