// resource.k8s.io (Dynamic Resource Allocation): v1 is GA; v1beta2 (same shapes as v1, plus
// DeviceTaintRule), v1beta1 (converted, see conversion.ts) and v1alpha3 (DeviceTaintRule with the
// v1beta2 shape, ResourcePoolStatusRequest) are off by default.
// Counterpart of pkg/registry/resource/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { resourceV1beta1Conversions } from './conversion.ts';
import { deviceClasses } from './deviceclass/deviceclass.ts';
import { deviceTaintRules } from './devicetaintrule/devicetaintrule.ts';
import { resourceClaims } from './resourceclaim/resourceclaim.ts';
import { resourceClaimTemplates } from './resourceclaimtemplate/resourceclaimtemplate.ts';
import { resourcePoolStatusRequests } from './resourcepoolstatusrequest/resourcepoolstatusrequest.ts';
import { resourceSlices } from './resourceslice/resourceslice.ts';

const core = [deviceClasses, resourceClaims, resourceClaimTemplates, resourceSlices];

export const resourceGroup: APIGroupDefinition = {
  group: 'resource.k8s.io',
  versions: [
    { version: 'v1', resources: core },
    { version: 'v1beta2', resources: [...core, deviceTaintRules] },
    { version: 'v1beta1', resources: core },
    { version: 'v1alpha3', resources: [deviceTaintRules, resourcePoolStatusRequests] },
  ],
  conversions: resourceV1beta1Conversions,
};
