// flowcontrol.apiserver.k8s.io: v1 FlowSchemas and PriorityLevelConfigurations (the betas serve
// no kinds in v1.36).
// Counterpart of pkg/registry/flowcontrol/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { flowSchemas } from './flowschema/flowschema.ts';
import { priorityLevelConfigurations } from './prioritylevelconfiguration/prioritylevelconfiguration.ts';

export const flowcontrolGroup: APIGroupDefinition = {
  group: 'flowcontrol.apiserver.k8s.io',
  versions: [{ version: 'v1', resources: [flowSchemas, priorityLevelConfigurations] }],
};
