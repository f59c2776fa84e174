// networking.k8s.io: v1 serves every resource; v1beta1 serves ipaddresses and servicecidrs with
// the v1 shapes (identity conversion, stored as v1) and is off by default.
// Counterpart of pkg/registry/networking/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { ingresses } from './ingress/ingress.ts';
import { ingressClasses } from './ingressclass/ingressclass.ts';
import { ipAddresses } from './ipaddress/ipaddress.ts';
import { networkPolicies } from './networkpolicy/networkpolicy.ts';
import { serviceCIDRs } from './servicecidr/servicecidr.ts';

export const networkingGroup: APIGroupDefinition = {
  group: 'networking.k8s.io',
  versions: [
    { version: 'v1', resources: [ingressClasses, ingresses, ipAddresses, networkPolicies, serviceCIDRs] },
    { version: 'v1beta1', resources: [ipAddresses, serviceCIDRs] },
  ],
};
