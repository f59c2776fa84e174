// Wire shapes (JSON) of networking.k8s.io/v1 (IPAddress and ServiceCIDR are the same in v1beta1).
// Counterpart of k8s.io/api/networking/v1.
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';
import type { IntOrString } from '../../core/v1/types.ts';

export interface ServiceBackendPort { name?: string; number?: number }
export interface IngressServiceBackend { name?: string; port?: ServiceBackendPort }
export interface TypedLocalObjectReference { apiGroup?: string; kind?: string; name?: string }
export interface IngressBackend { service?: IngressServiceBackend; resource?: TypedLocalObjectReference }
export interface HTTPIngressPath { path?: string; pathType?: string; backend?: IngressBackend }
export interface IngressRule { host?: string; http?: { paths?: HTTPIngressPath[] } }
export interface IngressTLS { hosts?: string[]; secretName?: string }
export interface IngressSpec { ingressClassName?: string; defaultBackend?: IngressBackend; tls?: IngressTLS[]; rules?: IngressRule[] }
export interface IngressLoadBalancerIngress { ip?: string; hostname?: string; ports?: { port: number; protocol?: string; error?: string }[] }
export interface IngressStatus { loadBalancer?: { ingress?: IngressLoadBalancerIngress[] } }
export interface Ingress { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec?: IngressSpec; status?: IngressStatus }

export interface IngressClassParametersReference { apiGroup?: string; kind?: string; name?: string; scope?: string; namespace?: string }
export interface IngressClass { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec?: { controller?: string; parameters?: IngressClassParametersReference } }

export interface NetworkPolicyPort { protocol?: string; port?: IntOrString; endPort?: number }
export interface IPBlock { cidr?: string; except?: string[] }
export interface NetworkPolicyPeer { podSelector?: LabelSelector; namespaceSelector?: LabelSelector; ipBlock?: IPBlock }
export interface NetworkPolicySpec {
  podSelector?: LabelSelector;
  ingress?: { ports?: NetworkPolicyPort[]; from?: NetworkPolicyPeer[] }[];
  egress?: { ports?: NetworkPolicyPort[]; to?: NetworkPolicyPeer[] }[];
  policyTypes?: string[];
}
export interface NetworkPolicy { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec?: NetworkPolicySpec }

export interface ParentReference { group?: string; resource?: string; namespace?: string; name?: string }
export interface IPAddress { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec?: { parentRef?: ParentReference } }

export interface Condition { type: string; status: string; observedGeneration?: number; lastTransitionTime?: string; reason?: string; message?: string }
export interface ServiceCIDR { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec?: { cidrs?: string[] }; status?: { conditions?: Condition[] } }
