// kube-apiserver's identity Lease: kube-system/apiserver-<hash of the host name> with the
// apiserver.kubernetes.io/identity label, held by "<name>_<uuid of this run>" for an hour and
// renewed every 10 s; a collector deletes such Leases an hour past their last renewal.
// Counterpart of the start-kube-apiserver-identity-lease-controller and
// start-kube-apiserver-identity-lease-garbage-collector hooks (pkg/controlplane/apiserver,
// k8s.io/component-helpers/apimachinery/lease).
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { isAlreadyExists, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

const NAMESPACE = 'kube-system';
const IDENTITY_LABEL = 'apiserver.kubernetes.io/identity';
const LEASE_DURATION_SECONDS = 3600;
const RENEW_INTERVAL_MS = 10_000;
const GC_INTERVAL_MS = 3_600_000;

/** RFC 4648 base32 without padding. */
function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) { out += alphabet[(value >>> (bits - 5)) & 31]; bits -= 5; }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** Each value prefixed by its length (two bytes, big-endian), as Go's cryptobyte builder writes them. */
function lengthPrefixed(...values: string[]): Buffer {
  return Buffer.concat(values.flatMap((v) => {
    const b = Buffer.from(v, 'utf8');
    const len = Buffer.alloc(2);
    len.writeUInt16BE(b.length);
    return [len, b];
  }));
}

/** "apiserver-" and the lower-cased base32 of the first 16 bytes of SHA-256 over the host name and "kube-apiserver". */
export function identityLeaseName(host: string): string {
  const digest = createHash('sha256').update(lengthPrefixed(host, 'kube-apiserver')).digest();
  return `apiserver-${base32(digest.subarray(0, 16)).toLowerCase()}`;
}

/** "ip:port", IPv6 in brackets. */
export const hostPort = (ip: string, port: number): string => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);

/** metav1.MicroTime: RFC 3339 with microseconds. */
const microTime = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

interface Lease extends KubeObject { spec?: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string } }

export class IdentityLeaseController {
  private readonly host = hostname();
  readonly name = identityLeaseName(this.host);
  private readonly holder = `${this.name}_${randomUUID()}`;
  private renewTimer: NodeJS.Timeout | undefined;
  private gcTimer: NodeJS.Timeout | undefined;

  /** `peerAddress`: "<advertise address>:<port>", once known. */
  constructor(private readonly leases: ResourceStore<KubeObject>, private readonly peerAddress: () => string | undefined) {}

  private desired(now: number): Lease {
    const peer = this.peerAddress();
    return {
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
      metadata: {
        name: this.name, namespace: NAMESPACE, labels: { [IDENTITY_LABEL]: 'kube-apiserver', 'kubernetes.io/hostname': this.host },
        ...(peer === undefined ? {} : { annotations: { 'kubernetes.io/peer-advertise-address': peer } }),
      },
      spec: { holderIdentity: this.holder, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime: microTime(now) },
    };
  }

  async renew(): Promise<void> {
    const ctx = systemContext(NAMESPACE);
    const want = this.desired(Date.now());
    try {
      await this.leases.updateUnchecked(ctx, this.name, (cur) => ({
        ...cur, metadata: { ...cur.metadata, labels: { ...cur.metadata.labels, ...want.metadata.labels },
          ...(want.metadata.annotations === undefined ? {} : { annotations: { ...cur.metadata.annotations, ...want.metadata.annotations } }) },
        spec: want.spec,
      }), { dryRun: false });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await this.leases.create(ctx, want, undefined, { dryRun: false }).catch((e: unknown) => { if (!isAlreadyExists(e)) throw e; });
    }
  }

  /** Deletes identity Leases whose holder has not renewed within their duration. */
  async collectGarbage(now = Date.now()): Promise<void> {
    const list = await this.leases.list(systemContext(NAMESPACE), { labelSelector: `${IDENTITY_LABEL}=kube-apiserver` }) as { items: Lease[] };
    for (const l of list.items) {
      const renewed = Date.parse(l.spec?.renewTime ?? '');
      const duration = (l.spec?.leaseDurationSeconds ?? 0) * 1000;
      if (Number.isNaN(renewed) || renewed + duration >= now || l.metadata.name === this.name) continue;
      await this.leases.delete(systemContext(NAMESPACE), l.metadata.name ?? '', undefined, {}).catch((err: unknown) => { if (!isNotFound(err)) throw err; });
    }
  }

  async start(): Promise<void> {
    await this.renew();
    this.renewTimer = setInterval(() => { this.renew().catch((err: unknown) => { console.error('identity lease:', err); }); }, RENEW_INTERVAL_MS).unref();
  }

  async startGC(): Promise<void> {
    await this.collectGarbage();
    this.gcTimer = setInterval(() => { this.collectGarbage().catch((err: unknown) => { console.error('identity lease gc:', err); }); }, GC_INTERVAL_MS).unref();
  }

  stop(): void {
    clearInterval(this.renewTimer);
    clearInterval(this.gcTimer);
  }
}
