// Cluster IP and node port allocation around service writes (registry/core/service/storage/
// alloc.go): beginCreate/beginUpdate reserve, the finish function gives back on failure,
// afterDelete releases.
// Counterpart of pkg/registry/core/service/storage/alloc.go.
import { fieldPath, invalid, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { newInternalError, newInvalid, StatusError } from '../../../apimachinery/errors/status-error.ts';
import { goQuote } from '../../../apimachinery/goformat/quote.ts';
import { parseIPSloppy } from '../../../apimachinery/validation/ip.ts';
import type { DeepReadonly, FinishFunc, WriteHooks } from '../../../registry/rest/strategy.ts';
import type { Service } from '../v1/types.ts';
import { AllocationError } from './bitmap.ts';
import { initIPFamilyFields, normalizeClusterIPs } from './cluster-ips.ts';
import { ERR_IP_ALLOCATED, ERR_IP_FULL, type IPAllocator } from './ipallocator.ts';
import { ERR_PORT_ALLOCATED, type PortAllocator } from './portallocator.ts';

export interface ServiceAllocators {
  /** The primary range (--service-cluster-ip-range[0]): its family is the cluster's default. */
  readonly serviceIPs: IPAllocator;
  /** The secondary range of the other family, on a dual-stack cluster. */
  readonly secondaryServiceIPs?: IPAllocator;
  readonly nodePorts: PortAllocator;
  /** Keeps one IPAddress object per allocated cluster IP, as kube's allocator does. */
  readonly ipAddresses?: IPAddressRecorder;
}

type Family = 'IPv4' | 'IPv6';

/** Where the allocated service IPs are published (networking.k8s.io IPAddress objects). */
export interface IPAddressRecorder {
  /** Records that the service holds `ip`; an existing record is kept. Never rejects. */
  allocated(ip: string, family: Family, service: { readonly namespace: string; readonly name: string }): Promise<void>;
  /** Drops the record of `ip`; a missing one is fine. Never rejects. */
  released(ip: string): Promise<void>;
  /** Whether an IPAddress object holds `ip` (one a client created blocks the address, as in kube). */
  exists(ip: string): Promise<boolean>;
}

/** How many addresses held by IPAddress objects allocateNext skips before giving up. */
const NEXT_ATTEMPTS = 16;

/** The families the cluster serves, the primary (default) first. */
const clusterFamilies = (a: ServiceAllocators): Family[] =>
  [a.serviceIPs.family, ...(a.secondaryServiceIPs === undefined ? [] : [a.secondaryServiceIPs.family])];

const allocatorFor = (a: ServiceAllocators, ip: string): IPAllocator | undefined => {
  const v4 = parseIPSloppy(ip)?.v4;
  return [a.serviceIPs, a.secondaryServiceIPs].find((x) => x !== undefined && (x.family === 'IPv4') === v4);
};

// kube's allocator answers so for an address outside every ServiceCIDR (ErrMismatchedNetwork).
const ERR_MISMATCHED_NETWORK = 'the provided network does not match the current range';

type RO<T> = DeepReadonly<T>;

export const needsClusterIP = (svc: RO<Service>): boolean => svc.spec.type !== 'ExternalName';
const needsNodePorts = (svc: RO<Service>): boolean =>
  svc.spec.type === 'NodePort' || (svc.spec.type === 'LoadBalancer' && svc.spec.allocateLoadBalancerNodePorts !== false);
export const needsHealthCheckNodePort = (svc: RO<Service>): boolean =>
  svc.spec.type === 'LoadBalancer' && svc.spec.externalTrafficPolicy === 'Local';

const invalidService = (svc: RO<Service>, errs: FieldError[]): StatusError =>
  newInvalid({ group: '', kind: 'Service' }, svc.metadata.name ?? '', errs);

/** The node ports a service holds (ports and health check). */
function nodePortsOf(svc: RO<Service>): Set<number> {
  const set = new Set<number>();
  for (const p of svc.spec.ports ?? []) if ((p.nodePort ?? 0) > 0) set.add(p.nodePort ?? 0);
  if ((svc.spec.healthCheckNodePort ?? 0) > 0) set.add(svc.spec.healthCheckNodePort ?? 0);
  return set;
}

function clusterIPsOf(svc: RO<Service>): string[] {
  return (svc.spec.clusterIPs ?? (svc.spec.clusterIP !== undefined ? [svc.spec.clusterIP] : []))
    .filter((ip) => ip !== '' && ip !== 'None');
}

/** A transaction of reservations: undone unless committed. */
class Txn {
  readonly ips: string[] = [];
  private readonly ports: number[] = [];
  constructor(private readonly a: ServiceAllocators, private readonly dryRun: boolean) {}
  /**
   * Reserves `ip`, or the next free address of `family`. As kube's allocators: an address outside
   * the usable range is ErrMismatchedNetwork (no ServiceCIDR holds it), while a dry run checks the
   * range of the family's CIDR only (ErrNotInRange), not whether the address is taken.
   */
  async ip(svc: RO<Service>, family: Family, ip: string | undefined): Promise<string> {
    try {
      if (ip === undefined) {
        const got = await this.next(this.familyAllocator(family));
        this.ips.push(got);
        return got;
      }
      const alloc = allocatorFor(this.a, ip);
      if (alloc === undefined) throw new AllocationError('NotInRange', ERR_MISMATCHED_NETWORK);
      try {
        await alloc.allocate(ip, this.dryRun);
      } catch (err) {
        if (!(err instanceof AllocationError)) throw err;
        if (this.dryRun && err.kind === 'Allocated') return ip;
        if (!this.dryRun && err.kind === 'NotInRange') throw new AllocationError('NotInRange', ERR_MISMATCHED_NETWORK);
        throw err;
      }
      if (!this.dryRun && await this.a.ipAddresses?.exists(ip) === true) {
        await alloc.release(ip);
        throw new AllocationError('Allocated', ERR_IP_ALLOCATED);
      }
      this.ips.push(ip);
      return ip;
    } catch (err) {
      if (!(err instanceof AllocationError)) throw err;
      // as kube's allocClusterIPs: only a full range is an internal error
      if (ip === undefined && err.kind !== 'Full') {
        throw invalidService(svc, [invalid(fieldPath('spec', 'clusterIPs'), svc.spec.clusterIPs ?? [''], `failed to allocate IP: ${err.message}`)]);
      }
      if (ip === undefined) throw newInternalError(new Error(`failed to allocate a serviceIP for Service ${goQuote(svc.metadata.name ?? '')}: ${err.message}`));
      throw invalidService(svc, [invalid(fieldPath('spec', 'clusterIPs'), svc.spec.clusterIPs ?? [ip], `failed to allocate IP ${ip}: ${err.message}`)]);
    }
  }
  /** The next free address that no IPAddress object holds; those skipped are freed again. */
  private async next(alloc: IPAllocator): Promise<string> {
    if (this.dryRun || this.a.ipAddresses === undefined) return alloc.allocateNext(this.dryRun);
    const skipped: string[] = [];
    try {
      for (let i = 0; i < NEXT_ATTEMPTS; i++) {
        const got = await alloc.allocateNext(false);
        if (!await this.a.ipAddresses.exists(got)) return got;
        skipped.push(got);
      }
      throw new AllocationError('Full', ERR_IP_FULL);
    } finally {
      for (const ip of skipped) await alloc.release(ip);
    }
  }
  get primaryFamily(): Family { return this.a.serviceIPs.family; }
  private familyAllocator(family: Family): IPAllocator {
    return this.a.secondaryServiceIPs?.family === family ? this.a.secondaryServiceIPs : this.a.serviceIPs;
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
    for (const ip of this.ips) await allocatorFor(this.a, ip)?.release(ip);
    for (const p of this.ports) await this.a.nodePorts.release(p);
  }
}

/**
 * Gives the service one address per entry of spec.ipFamilies from index `from` on (0 on create,
 * 1 when an update upgrades a single-stack service to dual-stack), taking the requested
 * spec.clusterIPs[i] where given.
 */
async function allocClusterIPs(svc: Service, txn: Txn, from = 0): Promise<void> {
  if (!needsClusterIP(svc) || svc.spec.clusterIP === 'None') {
    if (svc.spec.clusterIP === 'None') svc.spec.clusterIPs = ['None'];
    return;
  }
  if (from === 0 && (svc.spec.clusterIPs ?? []).length === 0 && (svc.spec.clusterIP ?? '') !== '') svc.spec.clusterIPs = [svc.spec.clusterIP ?? ''];
  const ips = [...(svc.spec.clusterIPs ?? [])];
  const families = svc.spec.ipFamilies ?? [];
  // unparsable addresses are left for validation to report
  if (ips.some((ip) => ip !== '' && parseIPSloppy(ip) === undefined)) return;
  for (let i = from; i < Math.max(families.length, 1); i++) {
    const requested = ips[i] ?? '';
    const family = (families[i] ?? txn.primaryFamily) as Family;
    ips[i] = await txn.ip(svc, family, requested === '' ? undefined : requested);
  }
  svc.spec.clusterIPs = ips;
  svc.spec.clusterIP = ips[0] ?? '';
}

/** Reserves node ports; ports of the same number (TCP and UDP) share one, as in kube. */
async function allocNodePorts(svc: Service, txn: Txn, held: ReadonlySet<number>): Promise<void> {
  const byServicePort = new Map<number, number>();
  const ports = svc.spec.ports ?? [];
  // kube's allocators look at node ports of NodePort and LoadBalancer services only; on any other
  // type a nodePort is for validation to refuse, never an allocation conflict.
  if (svc.spec.type === 'NodePort' || svc.spec.type === 'LoadBalancer') {
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
  for (const ip of ips) {
    await allocatorFor(a, ip)?.release(ip);
    await a.ipAddresses?.released(ip);
  }
  for (const p of ports) await a.nodePorts.release(p);
}

/** Publishes the addresses a committed write took. */
async function recordIPs(a: ServiceAllocators, svc: RO<Service>, ips: readonly string[]): Promise<void> {
  if (a.ipAddresses === undefined) return;
  const parent = { namespace: svc.metadata.namespace ?? '', name: svc.metadata.name ?? '' };
  for (const ip of ips) await a.ipAddresses.allocated(ip, parseIPSloppy(ip)?.v4 === true ? 'IPv4' : 'IPv6', parent);
}

/** A single-stack service whose update names a second family gets the secondary address. */
const isUpgrade = (svc: RO<Service>, old: RO<Service>): boolean =>
  needsClusterIP(old) && needsClusterIP(svc) && old.spec.clusterIP !== 'None' && svc.spec.clusterIP !== 'None' &&
  (old.spec.ipFamilies ?? []).length === 1 && (svc.spec.ipFamilies ?? []).length === 2;

export function newServiceHooks(a: ServiceAllocators): WriteHooks<Service> {
  return {
    async beginCreate(_ctx, svc, dryRun): Promise<FinishFunc> {
      const txn = new Txn(a, dryRun);
      try {
        normalizeClusterIPs(svc, undefined);
        initIPFamilyFields(svc, undefined, clusterFamilies(a));
        await allocClusterIPs(svc, txn);
        await allocNodePorts(svc, txn, new Set());
      } catch (err) {
        await txn.revert();
        throw err;
      }
      return async (success) => {
        if (!success) await txn.revert();
        else if (!dryRun) await recordIPs(a, svc, txn.ips);
      };
    },
    async beginUpdate(_ctx, svc, old, dryRun): Promise<FinishFunc> {
      const txn = new Txn(a, dryRun);
      try {
        patchAllocatedValues(svc, old);
        normalizeClusterIPs(svc, old);
        initIPFamilyFields(svc, old, clusterFamilies(a));
        // A service leaving ExternalName gets its addresses, an upgrade to dual-stack its secondary
        // one; any other change of clusterIPs is for validation to refuse (kube's updateClusterIPs).
        if (old.spec.type === 'ExternalName' && svc.spec.type !== 'ExternalName') await allocClusterIPs(svc, txn);
        else if (isUpgrade(svc, old)) await allocClusterIPs(svc, txn, 1);
        await allocNodePorts(svc, txn, nodePortsOf(old));
      } catch (err) {
        await txn.revert();
        throw err;
      }
      return async (success) => {
        if (!success) { await txn.revert(); return; }
        if (dryRun) return;
        await recordIPs(a, svc, txn.ips);
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
