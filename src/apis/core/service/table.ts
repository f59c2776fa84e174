// `kubectl get services` columns (printers.go printService).
// Counterpart of pkg/printers/internalversion/printers.go (printService).
import type { DeepReadonly, TableColumn } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn } from '../../../registry/rest/kit.ts';
import { formatLabels } from '../printers/format.ts';
import type { Service } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;

function loadBalancerIPs(svc: RO<Service>): string {
  const seen = new Set<string>();
  for (const ing of svc.status?.loadBalancer?.ingress ?? []) {
    if ((ing.ip ?? '') !== '') seen.add(ing.ip ?? '');
    else if ((ing.hostname ?? '') !== '') seen.add(ing.hostname ?? '');
  }
  return [...seen].join(',');
}

export function serviceExternalIP(svc: RO<Service>): string {
  const external = svc.spec.externalIPs ?? [];
  switch (svc.spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerIPs(svc);
      if (external.length > 0) return [...(lb === '' ? [] : lb.split(',')), ...external].join(',');
      return lb !== '' ? lb : '<pending>';
    }
    case 'ExternalName':
      return svc.spec.externalName ?? '';
    default:
      return '<unknown>';
  }
}

export function servicePorts(svc: RO<Service>): string {
  const s = (svc.spec.ports ?? []).map((p) => ((p.nodePort ?? 0) > 0
    ? `${p.port}:${p.nodePort ?? 0}/${p.protocol ?? ''}` : `${p.port}/${p.protocol ?? ''}`)).join(',');
  return s === '' ? '<none>' : s;
}

export const serviceTable: readonly TableColumn<Service>[] = [
  nameColumn<Service>(),
  { name: 'Type', type: 'string', cell: (s) => s.spec.type ?? '' },
  { name: 'Cluster-IP', type: 'string', cell: (s) => s.spec.clusterIPs?.[0] ?? '<none>' },
  { name: 'External-IP', type: 'string', cell: (s) => serviceExternalIP(s) },
  { name: 'Port(s)', type: 'string', cell: (s) => servicePorts(s) },
  ageColumn<Service>(),
  { name: 'Selector', type: 'string', priority: 1, cell: (s) => formatLabels(s.spec.selector) },
];
