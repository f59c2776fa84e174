// The IPAddress objects of kube's service IP allocator (pkg/registry/core/service/ipallocator):
// one per allocated cluster IP, named by the address, labelled with its family and the
// allocator, and pointing at the service through spec.parentRef. kapi's bitmaps stay the
// source of truth for allocation; these objects publish it as kube v1.36 does.
import { isAlreadyExists, isNotFound } from '../../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { ResourceStore } from '../../../registry/rest/strategy.ts';
import type { IPAddressRecorder } from '../../core/service/alloc.ts';

const LABEL_IP_FAMILY = 'ipaddress.kubernetes.io/ip-family';
const LABEL_MANAGED_BY = 'ipaddress.kubernetes.io/managed-by';
const CONTROLLER_NAME = 'ipallocator.k8s.io';

/** The IPAddress kube writes for a service's cluster IP. */
function serviceIPAddress(ip: string, family: 'IPv4' | 'IPv6', service: { readonly namespace: string; readonly name: string }): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress',
    metadata: { name: ip, labels: { [LABEL_IP_FAMILY]: family, [LABEL_MANAGED_BY]: CONTROLLER_NAME } },
    spec: { parentRef: { resource: 'services', namespace: service.namespace, name: service.name } },
  } as KubeObject;
}

/**
 * Writes IPAddress objects through the ipaddresses store, looked up on each call because it is
 * built after the service allocators. Failures are logged, not raised: the service write they
 * follow has already been committed.
 */
export function newIPAddressRecorder(store: () => ResourceStore<KubeObject> | undefined, log: (line: string) => void = console.error): IPAddressRecorder {
  return {
    async allocated(ip, family, service) {
      const s = store();
      if (s === undefined) return;
      try {
        await s.create(systemContext(''), serviceIPAddress(ip, family, service), undefined, { dryRun: false });
      } catch (err) {
        if (!isAlreadyExists(err)) log(`ipallocator: recording IPAddress ${ip}: ${String(err)}`);
      }
    },
    async exists(ip) {
      const s = store();
      if (s === undefined) return false;
      try {
        await s.get(systemContext(''), ip, {});
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },
    async released(ip) {
      const s = store();
      if (s === undefined) return;
      try {
        await s.delete(systemContext(''), ip, undefined, {});
      } catch (err) {
        if (!isNotFound(err)) log(`ipallocator: deleting IPAddress ${ip}: ${String(err)}`);
      }
    },
  };
}
