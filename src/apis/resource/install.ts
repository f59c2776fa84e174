// resource.k8s.io (Dynamic Resource Allocation): v1 is GA; v1beta2 (same shapes as v1, plus
// DeviceTaintRule), v1beta1 (converted, see conversion.ts) and v1alpha3 (DeviceTaintRule with the
// v1beta2 shape, ResourcePoolStatusRequest) are off by default.
// Counterpart of pkg/registry/resource/rest.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import type { ResourceDefinition } from '../../registry/rest/strategy.ts';
import { withAdminAccessCheck, type NamespaceLabels } from './admin-access.ts';
import { resourceV1beta1Conversions } from './conversion.ts';
import { deviceClasses } from './deviceclass/deviceclass.ts';
import { deviceTaintRules } from './devicetaintrule/devicetaintrule.ts';
import { resourceClaims } from './resourceclaim/resourceclaim.ts';
import { resourceClaimTemplates } from './resourceclaimtemplate/resourceclaimtemplate.ts';
import { resourcePoolStatusRequests } from './resourcepoolstatusrequest/resourcepoolstatusrequest.ts';
import { resourceSlices } from './resourceslice/resourceslice.ts';

/**
 * The group; with `namespaceLabels` (how the server reads a namespace's labels), claims and claim
 * templates check adminAccess against their namespace's label as kube's strategies do.
 */
export function resourceGroupWith(namespaceLabels?: NamespaceLabels): APIGroupDefinition {
  const claims = namespaceLabels === undefined ? resourceClaims
    : withAdminAccessCheck(resourceClaims, namespaceLabels, (c) => c.spec?.devices?.requests);
  const templates = namespaceLabels === undefined ? resourceClaimTemplates
    : withAdminAccessCheck(resourceClaimTemplates, namespaceLabels, (t) => t.spec?.spec?.devices?.requests);
  const core = [deviceClasses, claims, templates, resourceSlices] as readonly ResourceDefinition<KubeObject>[];
  return {
    group: 'resource.k8s.io',
    versions: [
      { version: 'v1', resources: core },
      { version: 'v1beta2', resources: [...core, deviceTaintRules] },
      { version: 'v1beta1', resources: core },
      { version: 'v1alpha3', resources: [deviceTaintRules, resourcePoolStatusRequests] },
    ],
    conversions: resourceV1beta1Conversions,
  };
}

/** The group without the namespace lookups (tests). */
export const resourceGroup: APIGroupDefinition = resourceGroupWith();
