// Cluster IP and node port allocation around service writes (registry/core/service/storage/
// alloc.go): beginCreate/beginUpdate reserve, the finish function gives back on failure,
// afterDelete releases.
// Counterpart of pkg/registry/core/service/storage/alloc.go.
import { fieldPath, invalid, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { newInternalError, newInvalid, StatusError } from '../../../apimachinery/errors/status-error.ts';
import { parseIPSloppy } from '../../../apimachinery/validation/ip.ts';
import type { DeepReadonly, FinishFunc, WriteHooks } from '../../../registry/rest/strategy.ts';
import type { Service } from '../v1/types.ts';
import { AllocationError } from './bitmap.ts';
import { initIPFamilyFields, normalizeClusterIPs } from './cluster-ips.ts';
import type { IPAllocator } from './ipallocator.ts';
import { ERR_PORT_ALLOCATED, type PortAllocator } from './portallocator.ts';

export interface ServiceAllocators {
  readonly serviceIPs: IPAllocator;
  readonly nodePorts: PortAllocator;
}

type RO<T> = DeepReadonly<T>;

export const needsClusterIP = (svc: RO<Service>): boolean => svc.spec.type !== 'ExternalName';
export const needsNodePorts = (svc: RO<Service>): boolean =>
  svc.spec.type === 'NodePort' || (svc.spec.type === 'LoadBalancer' && svc.spec.allocateLoadBalancerNodePorts !== false);
export const needsHealthCheckNodePort = (svc: RO<Service>): boolean =>
  svc.spec.type === 'LoadBalancer' && svc.spec.externalTrafficPolicy === 'Local';

const invalidService = (svc: RO<Service>, errs: FieldError[]): StatusError =>
  newInvalid({ group: '', kind: 'Service' }, svc.metadata.name ?? '', errs);

/** The node ports a service holds (ports and health check). */
export function nodePortsOf(svc: RO<Service>): Set<number> {
  const set = new Set<number>();
  for (const p of svc.spec.ports ?? []) if ((p.nodePort ?? 0) > 0) set.add(p.nodePort ?? 0);
  if ((svc.spec.healthCheckNodePort ?? 0) > 0) set.add(svc.spec.healthCheckNodePort ?? 0);
  return set;
}

export function clusterIPsOf(svc: RO<Service>): string[] {
  return (svc.spec.clusterIPs ?? (svc.spec.clusterIP !== undefined ? [svc.spec.clusterIP] : []))
    .filter((ip) => ip !== '' && ip !== 'None');
}

/** A transaction of reservations: undone unless committed. */
class Txn {
  private readonly ips: string[] = [];
  private readonly ports: number[] = [];
  constructor(private readonly a: ServiceAllocators, private readonly dryRun: boolean) {}
  async ip(svc: RO<Service>, ip: string | undefined): Promise<string> {
    try {
      if (ip === undefined) {
        const got = await this.a.serviceIPs.allocateNext(this.dryRun);
        this.ips.push(got);
        return got;
      }
      await this.a.serviceIPs.allocate(ip, this.dryRun);
      this.ips.push(ip);
      return ip;
    } catch (err) {
      if (!(err instanceof AllocationError)) throw err;
      if (ip === undefined) throw newInternalError(new Error(`failed to allocate a serviceIP: ${err.message}`));
      throw invalidService(svc, [invalid(fieldPath('spec', 'clusterIPs'), svc.spec.clusterIPs ?? [ip], `failed to allocate IP ${ip}: ${err.message}`)]);
    }
  }
  async port(svc: RO<Service>, port: number | undefined, path: string, what = 'nodePort'): Promise<number> {
    try {
      if (port === undefined) {
        const got = await this.a.nodePorts.allocateNext(this.dryRun);
        this.ports.push(got);
        return got;
      }
      if (this.dryRun) {
        // as kube's dry-run PortAllocationOperation: no range check, only ports already taken
        // (in the allocator or earlier in this operation) are refused
        if (this.ports.includes(port) || await this.a.nodePorts.has(port)) throw new AllocationError('Allocated', ERR_PORT_ALLOCATED);
      } else {
        await this.a.nodePorts.allocate(port, false);
      }
      this.ports.push(port);
      return port;
    } catch (err) {
      if (!(err instanceof AllocationError)) throw err;
      if (port === undefined) throw newInternalError(new Error(`failed to allocate a ${what}: ${err.message}`));
      throw invalidService(svc, [invalid(path, port, err.message)]);
    }
  }
  async revert(): Promise<void> {
    if (this.dryRun) return;
    for (const ip of this.ips) await this.a.serviceIPs.release(ip);
    for (const p of this.ports) await this.a.nodePorts.release(p);
  }
}

async function allocClusterIP(svc: Service, txn: Txn): Promise<void> {
  if (!needsClusterIP(svc) || svc.spec.clusterIP === 'None') {
    if (svc.spec.clusterIP === 'None') svc.spec.clusterIPs = ['None'];
    return;
  }
  const requested = svc.spec.clusterIPs?.[0] ?? svc.spec.clusterIP ?? '';
  // unparsable addresses are left for validation to report
  if (requested !== '' && parseIPSloppy(requested) === undefined) return;
  const ip = await txn.ip(svc, requested === '' ? undefined : requested);
  svc.spec.clusterIP = ip;
  svc.spec.clusterIPs = [ip, ...(svc.spec.clusterIPs ?? []).slice(1)];
}

/** Reserves node ports; ports of the same number (TCP and UDP) share one, as in kube. */
async function allocNodePorts(svc: Service, txn: Txn, held: ReadonlySet<number>): Promise<void> {
  const byServicePort = new Map<number, number>();
  const ports = svc.spec.ports ?? [];
  if (needsNodePorts(svc) || ports.some((p) => (p.nodePort ?? 0) !== 0)) {
    for (let i = 0; i < ports.length; i++) {
      const p = ports[i];
      if (p === undefined) continue;
      const path = `spec.ports[${i}].nodePort`;
      const requested = p.nodePort ?? 0;
      if (requested === 0 && !needsNodePorts(svc)) continue;
      const shared = byServicePort.get(p.port);
      if (requested !== 0) {
        if (!held.has(requested) && shared !== requested) await txn.port(svc, requested, path);
        byServicePort.set(p.port, requested);
      } else if (shared !== undefined) {
        p.nodePort = shared;
      } else {
        const explicit = ports.find((q) => q.port === p.port && (q.nodePort ?? 0) !== 0)?.nodePort;
        const got = explicit !== undefined ? explicit : await txn.port(svc, undefined, path);
        if (explicit !== undefined && !held.has(explicit)) await txn.port(svc, explicit, path);
        p.nodePort = got;
        byServicePort.set(p.port, got);
      }
    }
  }
  if (needsHealthCheckNodePort(svc)) {
    const hc = svc.spec.healthCheckNodePort ?? 0;
    if (hc === 0) svc.spec.healthCheckNodePort = await txn.port(svc, undefined, 'spec.healthCheckNodePort', 'HealthCheck NodePort');
    else if (!held.has(hc)) await txn.port(svc, hc, 'spec.healthCheckNodePort');
  }
}

/** Values a client omitted on update keep what was allocated (patchAllocatedValues). */
function patchAllocatedValues(svc: Service, old: RO<Service>): void {
  if (needsClusterIP(old) && needsClusterIP(svc)) {
    if ((svc.spec.clusterIP ?? '') === '' && old.spec.clusterIP !== undefined) svc.spec.clusterIP = old.spec.clusterIP;
    if ((svc.spec.clusterIPs ?? []).length === 0 && (old.spec.clusterIPs ?? []).length > 0) svc.spec.clusterIPs = [...(old.spec.clusterIPs ?? [])];
  }
  if (needsNodePorts(old) && needsNodePorts(svc)) {
    for (const p of svc.spec.ports ?? []) {
      if ((p.nodePort ?? 0) !== 0) continue;
      const match = (old.spec.ports ?? []).find((q) => q.port === p.port && (q.protocol ?? 'TCP') === (p.protocol ?? 'TCP'));
      if (match?.nodePort !== undefined) p.nodePort = match.nodePort;
    }
  }
  if (needsHealthCheckNodePort(old) && needsHealthCheckNodePort(svc) && (svc.spec.healthCheckNodePort ?? 0) === 0 &&
      old.spec.healthCheckNodePort !== undefined) {
    svc.spec.healthCheckNodePort = old.spec.healthCheckNodePort;
  }
}

async function releaseAll(a: ServiceAllocators, ips: Iterable<string>, ports: Iterable<number>): Promise<void> {
  for (const ip of ips) await a.serviceIPs.release(ip);
  for (const p of ports) await a.nodePorts.release(p);
}

export function newServiceHooks(a: ServiceAllocators): WriteHooks<Service> {
  return {
    async beginCreate(_ctx, svc, dryRun): Promise<FinishFunc> {
      const txn = new Txn(a, dryRun);
      try {
        normalizeClusterIPs(svc, undefined);
        initIPFamilyFields(svc, undefined, [a.serviceIPs.family]);
        await allocClusterIP(svc, txn);
        await allocNodePorts(svc, txn, new Set());
      } catch (err) {
        await txn.revert();
        throw err;
      }
      return async (success) => { if (!success) await txn.revert(); };
    },
    async beginUpdate(_ctx, svc, old, dryRun): Promise<FinishFunc> {
      const txn = new Txn(a, dryRun);
      try {
        patchAllocatedValues(svc, old);
        normalizeClusterIPs(svc, old);
        initIPFamilyFields(svc, old, [a.serviceIPs.family]);
        // Only a service leaving ExternalName gets an address on update; any other change of
        // clusterIPs is for validation to refuse (kube's updateClusterIPs on a single-stack cluster).
        if (old.spec.type === 'ExternalName' && svc.spec.type !== 'ExternalName') await allocClusterIP(svc, txn);
        await allocNodePorts(svc, txn, nodePortsOf(old));
      } catch (err) {
        await txn.revert();
        throw err;
      }
      return async (success) => {
        if (!success) { await txn.revert(); return; }
        if (dryRun) return;
        const keepIPs = new Set(clusterIPsOf(svc));
        const keepPorts = nodePortsOf(svc);
        await releaseAll(a, clusterIPsOf(old).filter((ip) => !keepIPs.has(ip)), [...nodePortsOf(old)].filter((p) => !keepPorts.has(p)));
      };
    },
    async afterDelete(_ctx, svc) {
      await releaseAll(a, clusterIPsOf(svc), nodePortsOf(svc));
    },
  };
}
