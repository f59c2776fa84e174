// DenyServiceExternalIPs: no new external IPs on services (CVE-2020-8554); an update may keep or
// drop the ones a service has.
// Counterpart of plugin/pkg/admission/network/denyserviceexternalips.
import { newForbidden } from '../../apimachinery/errors/status-error.ts';
import type { WireObject } from '../../apimachinery/meta/types.ts';
import type { corev1 } from '../../generated/types/index.gen.ts';
import { type Plugin, onResources } from '../interfaces.ts';
import { admissionName } from './limit-ranger.ts';

type ServiceLike = WireObject<corev1.Service>;

export function denyServiceExternalIPs(): Plugin {
  return {
    name: 'DenyServiceExternalIPs',
    resources: onResources('/services'),
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    validate(_ctx, a) {
      if (a.resource.group !== '' || a.resource.resource !== 'services' || a.subresource !== '' || a.object === undefined) return Promise.resolve();
      const ips = (a.object as ServiceLike).spec?.externalIPs ?? [];
      const old = a.oldObject === undefined ? undefined : new Set((a.oldObject as ServiceLike).spec?.externalIPs ?? []);
      if (ips.length === 0 || (old !== undefined && ips.every((ip) => old.has(ip)))) return Promise.resolve();
      return Promise.reject(newForbidden({ group: '', resource: 'services' }, admissionName(a), 'Use of external IPs is denied by admission control'));
    },
  };
}
