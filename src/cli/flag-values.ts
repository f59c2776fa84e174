// Value syntaxes of kube-apiserver flags: Go durations, CIDRs and IPs as Go prints them, and
// utilnet.PortRange, with Go's error messages.
import { isIPv4, isIPv6 } from 'node:net';

export interface CIDR {
  /** The network address, formatted as Go does. */
  readonly ip: string;
  readonly prefix: number;
  readonly family: 4 | 6;
  readonly text: string;
}

export interface PortRange { readonly base: number; readonly size: number }

const UNIT_NS: Readonly<Record<string, number>> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** time.ParseDuration, in milliseconds. Throws Go's message (`time: invalid duration "x"`). */
export function parseDuration(s: string): number {
  const quoted = JSON.stringify(s);
  let rest = s;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) { sign = rest[0] === '-' ? -1 : 1; rest = rest.slice(1); }
  if (rest === '0') return 0;
  if (rest === '') throw new Error(`time: invalid duration ${quoted}`);
  let ns = 0;
  while (rest !== '') {
    const num = /^([0-9]*)(\.([0-9]*))?/.exec(rest);
    const whole = num?.[1] ?? '';
    const frac = num?.[3] ?? '';
    if (num === null || (whole === '' && frac === '')) throw new Error(`time: invalid duration ${quoted}`);
    rest = rest.slice(num[0].length);
    const unit = /^[^0-9.]*/.exec(rest)?.[0] ?? '';
    if (unit === '') throw new Error(`time: missing unit in duration ${quoted}`);
    const scale = UNIT_NS[unit];
    if (scale === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    rest = rest.slice(unit.length);
    ns += Number(`${whole === '' ? '0' : whole}.${frac === '' ? '0' : frac}`) * scale;
  }
  return (sign * ns) / 1e6;
}

/** time.Duration.String: `1m0s`, `1h0m0s`, `300ms`, `0s`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  let out: string;
  if (rest < 1000) {
    out = `${+rest.toFixed(6)}ms`;
  } else {
    const h = Math.floor(rest / 3_600_000); rest -= h * 3_600_000;
    const m = Math.floor(rest / 60_000); rest -= m * 60_000;
    const sec = `${+(rest / 1000).toFixed(9)}s`;
    out = h > 0 ? `${h}h${m}m${sec}` : m > 0 ? `${m}m${sec}` : sec;
  }
  return neg ? `-${out}` : out;
}

function ipToBigInt(ip: string): { value: bigint; family: 4 | 6 } | undefined {
  if (isIPv4(ip)) return { value: ip.split('.').reduce((acc, o) => (acc << 8n) | BigInt(Number(o)), 0n), family: 4 };
  if (!isIPv6(ip)) return undefined;
  let text = ip;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4 !== null) {
    const n = ipToBigInt(v4[1] ?? '')?.value ?? 0n;
    text = `${text.slice(0, -(v4[1] ?? '').length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const hs = head === '' ? [] : head.split(':');
  const ts = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? hs : [...hs, ...Array<string>(8 - hs.length - ts.length).fill('0'), ...ts];
  return { value: groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n), family: 6 };
}

/** net.IP.String: dotted quad, or RFC 5952 compressed IPv6. */
export function formatIP(value: bigint, family: 4 | 6): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = -1; let bestLen = 0;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) { best = i; bestLen = j - i; }
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/** net.ParseCIDR; the address is masked to the network. Throws `invalid CIDR address: x`. */
export function parseCIDR(text: string): CIDR {
  const m = /^([^/]+)\/([0-9]{1,3})$/.exec(text);
  const parsed = m === null ? undefined : ipToBigInt(m[1] ?? '');
  const prefix = Number(m?.[2]);
  const bits = parsed?.family === 4 ? 32 : 128;
  if (parsed === undefined || prefix > bits) throw new Error(`invalid CIDR address: ${text}`);
  const mask = ((1n << BigInt(bits)) - 1n) ^ ((1n << BigInt(bits - prefix)) - 1n);
  const ip = formatIP(parsed.value & mask, parsed.family);
  return { ip, prefix, family: parsed.family, text: `${ip}/${prefix}` };
}

/** The first usable address of a range (network + 1): the `kubernetes` Service's ClusterIP. */
export function firstIPInRange(cidr: CIDR): string {
  const base = ipToBigInt(cidr.ip)?.value ?? 0n;
  return formatIP(base + 1n, cidr.family);
}

function atoi(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  return Number(s);
}

/** utilnet.PortRange.Set: `30000-32767`, `30000+2767`, or a single port. */
export function parsePortRange(value: string): PortRange {
  const v = value.trim();
  if (v === '') return { base: 0, size: 0 };
  const hyphen = v.indexOf('-');
  const plus = v.indexOf('+');
  let low: number; let high: number;
  if (hyphen < 0 && plus < 0) { low = high = atoi(v); }
  else if (plus < 0) { low = atoi(v.slice(0, hyphen)); high = atoi(v.slice(hyphen + 1)); }
  else if (hyphen < 0) { low = atoi(v.slice(0, plus)); high = low + atoi(v.slice(plus + 1)); }
  else throw new Error(`unable to parse port range: ${v}`);
  if (low > 65535 || high > 65535) throw new Error(`the port range cannot be greater than 65535: ${v}`);
  if (high < low) throw new Error(`end port cannot be less than start port: ${v}`);
  return { base: low, size: 1 + high - low };
}

