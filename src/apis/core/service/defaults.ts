// SetDefaults_Service (pkg/apis/core/v1/defaults.go). ipFamilies/ipFamilyPolicy and cluster
// IPs are filled when allocating (alloc.ts), as kube's service storage does.
import type { Service } from '../v1/types.ts';

const DEFAULT_CLIENT_IP_TIMEOUT_SECONDS = 10800;

/** LoadBalancer, NodePort, or ClusterIP with external IPs. */
export function externallyAccessible(svc: { readonly spec: { readonly type?: string; readonly externalIPs?: readonly string[] } }): boolean {
  const t = svc.spec.type;
  return t === 'LoadBalancer' || t === 'NodePort' || (t === 'ClusterIP' && (svc.spec.externalIPs ?? []).length > 0);
}

export function defaultService(svc: Service): void {
  svc.spec ??= {};
  const spec = svc.spec;
  if (spec.sessionAffinity === undefined || spec.sessionAffinity === '') spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_TIMEOUT_SECONDS } };
  }
  if (spec.type === undefined || spec.type === '') spec.type = 'ClusterIP';
  for (const p of spec.ports ?? []) {
    if (p.protocol === undefined || p.protocol === '') p.protocol = 'TCP';
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port ?? 0;
  }
  if (externallyAccessible(svc) && (spec.externalTrafficPolicy ?? '') === '') spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type)) {
    spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
  for (const ing of svc.status?.loadBalancer?.ingress ?? []) {
    if ((ing.ip ?? '') !== '' && ing.ipMode === undefined) ing.ipMode = 'VIP';
  }
}
