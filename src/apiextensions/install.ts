// The apiextensions.k8s.io group: v1 customresourcedefinitions.
import type { APIGroupDefinition } from '../registry/rest/group.ts';
import { customResourceDefinitions } from './crd/crd.ts';
import { GROUP } from './v1/types.ts';

export const apiextensionsGroup: APIGroupDefinition = {
  group: GROUP,
  versions: [{ version: 'v1', resources: [customResourceDefinitions] }],
};
