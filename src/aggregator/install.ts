// apiregistration.k8s.io: the APIService objects of the aggregation layer.
// Counterpart of k8s.io/kube-aggregator/pkg/registry/apiservice/rest and
// k8s.io/kube-aggregator/pkg/apis/apiregistration/install.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { APIGroupDefinition } from '../registry/rest/group.ts';
import type { ResourceDefinition } from '../registry/rest/strategy.ts';
import { apiServices } from './apiservice/apiservice.ts';

export const apiregistrationGroup: APIGroupDefinition = {
  group: 'apiregistration.k8s.io',
  versions: [{ version: 'v1', resources: [apiServices as unknown as ResourceDefinition<KubeObject>] }],
};
