// The apiextensions.k8s.io group: v1 customresourcedefinitions.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go (the group's APIGroupInfo).
import type { APIGroupDefinition } from '../registry/rest/group.ts';
import { customResourceDefinitions } from './crd/crd.ts';
import { GROUP } from './v1/types.ts';

export const apiextensionsGroup: APIGroupDefinition = {
  group: GROUP,
  versions: [{ version: 'v1', resources: [customResourceDefinitions] }],
};
