// Dual-stack service scenarios (kube's ipFamilyPolicy and ipFamilies rules with two service
// CIDRs), reduced to what does not depend on random allocation: the answer's code, the policy,
// the families, each cluster IP's family and whether it lies in the CIDR of that family; plus the
// default ServiceCIDR and whether the IPAddress objects are exactly the allocated addresses.
// No Go counterpart: the e2e test harness.
import { parseCIDRSloppy, parseIPSloppy, ipToBigInt } from '../../apimachinery/validation/ip.ts';
import type { RawRequest, RawResponse } from './https-client.ts';

export const DUAL_STACK_RANGES = ['10.0.0.0/24', 'fd00::/108'] as const;
export const DUAL_STACK_FLAGS = ['--service-cluster-ip-range', DUAL_STACK_RANGES.join(',')];
/**
 * The same ranges with IPv6 primary: IPv6 is then every defaulted service's family. kube refuses
 * to start unless the advertised address is IPv6 too.
 */
export const DUAL_STACK_V6_PRIMARY_FLAGS = ['--service-cluster-ip-range', [...DUAL_STACK_RANGES].reverse().join(','), '--advertise-address', '2001:db8::2'];

type Send = (req: RawRequest) => Promise<RawResponse>;
type Spec = Record<string, unknown>;
interface Svc { metadata: { name: string; namespace?: string }; spec: { clusterIPs?: string[] | undefined; ipFamilies?: string[] | undefined; ipFamilyPolicy?: string; [k: string]: unknown } }

const PATH = '/api/v1/namespaces/default/services';
const json = (method: string, path: string, body?: unknown): RawRequest =>
  ({ method, path, ...(body === undefined ? {} : { body: JSON.stringify(body), contentType: 'application/json' }) });

/** A step: create a service with `spec` or change the one named by `update`. */
export interface Step { readonly name: string; readonly create?: Spec; readonly update?: string; readonly change?: (s: Svc['spec']) => void }

// Chosen IPv4 addresses lie in the lower band of 10.0.0.0/24 (10.0.0.1-16), which dynamic allocation
// leaves to static ones (KEP-3070), so a service allocated earlier in the run never holds them.
export const STEPS: readonly Step[] = [
  { name: 'single', create: {} },
  { name: 'single6', create: { ipFamilies: ['IPv6'] } },
  { name: 'prefer', create: { ipFamilyPolicy: 'PreferDualStack' } },
  { name: 'require', create: { ipFamilyPolicy: 'RequireDualStack' } },
  { name: 'require64', create: { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6', 'IPv4'] } },
  { name: 'prefer6', create: { ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv6'] } },
  { name: 'headless', create: { clusterIP: 'None' } },
  { name: 'headlessnosel', create: { clusterIP: 'None', selector: null } },
  { name: 'explicit', create: { ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.0.0.10', clusterIPs: ['10.0.0.10', 'fd00::50'] } },
  { name: 'explicit6', create: { clusterIP: 'fd00::51', clusterIPs: ['fd00::51'] } },
  { name: 'nodeport-require', create: { type: 'NodePort', ipFamilyPolicy: 'RequireDualStack' } },
  { name: 'upgrade single to RequireDualStack', update: 'single', change: (s) => { s.ipFamilyPolicy = 'RequireDualStack'; } },
  { name: 'upgrade single6 to PreferDualStack with a chosen IPv4', update: 'single6',
    change: (s) => { s.ipFamilyPolicy = 'PreferDualStack'; s.clusterIPs = [...(s.clusterIPs ?? []), '10.0.0.14']; } },
  { name: 'downgrade prefer to SingleStack', update: 'prefer', change: (s) => { s.ipFamilyPolicy = 'SingleStack'; } },
  { name: 'downgrade require to SingleStack, lists trimmed', update: 'require',
    change: (s) => { s.ipFamilyPolicy = 'SingleStack'; s.clusterIPs = s.clusterIPs?.slice(0, 1); s.ipFamilies = s.ipFamilies?.slice(0, 1); } },
  { name: 'a cluster IP change after upgrade', update: 'explicit', change: (s) => { s.clusterIPs = ['10.0.0.10', 'fd00::52']; } },
];

/** What a step's answer is reduced to. */
export interface StepOutcome {
  readonly code: number;
  readonly policy?: string;
  readonly families?: readonly string[];
  /** Per cluster IP: its family and whether it is inside the matching CIDR ("None" for headless). */
  readonly ips?: readonly string[];
  readonly message?: string;
}

function inRange(ip: string): string {
  const addr = parseIPSloppy(ip);
  if (addr === undefined) return ip === 'None' ? 'None' : 'unparsable';
  const family = addr.v4 ? 'IPv4' : 'IPv6';
  const cidr = DUAL_STACK_RANGES.map((c) => parseCIDRSloppy(c)).find((c) => c?.network.v4 === addr.v4);
  if (cidr === undefined) return `${family} outside`;
  const bits = BigInt(cidr.network.bytes.length * 8 - cidr.prefixLength);
  return `${family} ${(ipToBigInt(addr) >> bits) === (ipToBigInt(cidr.network) >> bits) ? 'in range' : 'outside'}`;
}

function reduce(r: RawResponse): StepOutcome {
  if (r.status >= 300) return { code: r.status, message: (r.json() as { message?: string }).message ?? '' };
  const s = (r.json() as Svc).spec;
  return { code: r.status, policy: s.ipFamilyPolicy ?? '', families: s.ipFamilies ?? [], ips: (s.clusterIPs ?? []).map(inRange) };
}

export interface DualStackReport {
  readonly steps: Readonly<Record<string, StepOutcome>>;
  readonly kubernetesService: StepOutcome;
  /** The default ServiceCIDR without timestamps. */
  readonly serviceCIDR: unknown;
  /** Every allocated cluster IP has its IPAddress (labels, parentRef) and no other IPAddress exists. */
  readonly ipAddresses: string;
}

interface IPAddressObj { metadata: { name: string; labels?: Record<string, string> }; spec?: { parentRef?: Record<string, string> } }

export async function observeDualStack(send: Send): Promise<DualStackReport> {
  const steps: Record<string, StepOutcome> = {};
  for (const step of STEPS) {
    if (step.create !== undefined) {
      const body = { metadata: { name: step.name }, spec: { selector: { app: 'x' }, ports: [{ port: 80 }], ...step.create } };
      steps[step.name] = reduce(await send(json('POST', PATH, body)));
      continue;
    }
    const got = await send(json('GET', `${PATH}/${step.update ?? ''}`));
    const svc = got.json() as Svc;
    step.change?.(svc.spec);
    steps[step.name] = reduce(await send(json('PUT', `${PATH}/${step.update ?? ''}`, svc)));
  }
  const kubernetesService = reduce(await send(json('GET', `${PATH}/kubernetes`)));
  const cidr = (await send(json('GET', '/apis/networking.k8s.io/v1/servicecidrs/kubernetes'))).json() as
    { spec?: unknown; status?: { conditions?: Record<string, unknown>[] } };
  const serviceCIDR = { spec: cidr.spec, conditions: (cidr.status?.conditions ?? []).map(({ lastTransitionTime: _t, ...c }) => c) };
  const services = ((await send(json('GET', '/api/v1/services'))).json() as { items: Svc[] }).items;
  const want = new Map<string, string>();
  for (const s of services) {
    for (const ip of s.spec.clusterIPs ?? []) if (ip !== 'None') want.set(ip, `${s.metadata.namespace ?? ''}/${s.metadata.name}`);
  }
  const have = ((await send(json('GET', '/apis/networking.k8s.io/v1/ipaddresses'))).json() as { items: IPAddressObj[] }).items;
  const problems: string[] = [];
  for (const a of have) {
    const owner = want.get(a.metadata.name);
    const ref = a.spec?.parentRef ?? {};
    const family = parseIPSloppy(a.metadata.name)?.v4 === true ? 'IPv4' : 'IPv6';
    if (owner === undefined) problems.push(`${a.metadata.name}: no service holds it`);
    else if (`${ref['namespace'] ?? ''}/${ref['name'] ?? ''}` !== owner || ref['resource'] !== 'services') problems.push(`${a.metadata.name}: parentRef ${JSON.stringify(ref)}`);
    if (a.metadata.labels?.['ipaddress.kubernetes.io/ip-family'] !== family ||
        a.metadata.labels['ipaddress.kubernetes.io/managed-by'] !== 'ipallocator.k8s.io') problems.push(`${a.metadata.name}: labels ${JSON.stringify(a.metadata.labels)}`);
    want.delete(a.metadata.name);
  }
  for (const [ip, owner] of want) problems.push(`${ip} of ${owner}: no IPAddress`);
  return { steps, kubernetesService, serviceCIDR, ipAddresses: problems.length === 0 ? 'exactly the allocated addresses' : problems.sort().join('; ') };
}
