// apiregistration.k8s.io: the APIService objects of the aggregation layer.
// Counterpart of k8s.io/kube-aggregator/pkg/registry/apiservice/rest/storage_apiservice.go.
import type { APIGroupDefinition } from '../registry/rest/group.ts';
import { apiServices } from './apiservice/apiservice.ts';

export const apiregistrationGroup: APIGroupDefinition = {
  group: 'apiregistration.k8s.io',
  versions: [{ version: 'v1', resources: [apiServices] }],
};
