// kube's IP and CIDR libraries: ip(), cidr(), isIP(), isCIDR(), ip.isCanonical() and the methods,
// with Go's net/netip parsing (strict: no leading zeros, no zones; IPv4-mapped IPv6 refused by kube).
// Go counterparts: k8s.io/apiserver/pkg/cel/library/ip.go, cidr.go.
import type { Environment } from '@marcbachmann/cel-js';
import { bigIntToIP, formatIP, ipToBigInt, parseIPSloppy, type ParsedIP } from '../../apimachinery/validation/ip.ts';
import { def, fail, namespace } from './util.ts';

export class KubeIP {
  constructor(readonly addr: ParsedIP) {}
  toString(): string { return formatIP(this.addr); }
}

export class KubeCIDR {
  constructor(readonly addr: ParsedIP, readonly bits: number) {}
  toString(): string { return `${formatIP(this.addr)}/${this.bits}`; }
}

/** netip.ParseAddr's reason a string is not an address, or undefined when it is one. */
function addrProblem(s: string): string | undefined {
  if (s === '') return 'unable to parse IP';
  if (s.includes('%')) return undefined;
  if (!s.includes(':')) {
    const parts = s.split('.');
    if (parts.length < 4) return 'IPv4 address too short';
    if (parts.length > 4) return 'IPv4 address too long';
    for (const p of parts) {
      if (p === '') return 'IPv4 field must have at least one digit';
      if (!/^\d+$/.test(p)) return 'unexpected character';
      if (p.length > 1 && p.startsWith('0')) return 'IPv4 field has octet with leading zero';
      if (Number(p) > 255) return 'IPv4 field has value >255';
    }
  }
  return parseIPSloppy(s) === undefined ? 'unable to parse IP' : undefined;
}

function parseAddr(raw: string): ParsedIP {
  const problem = addrProblem(raw);
  if (problem !== undefined) fail(`IP Address ${JSON.stringify(raw)} parse error during conversion from string: ParseAddr(${JSON.stringify(raw)}): ${problem}`);
  if (raw.includes('%')) fail(`IP address ${JSON.stringify(raw)} with zone value is not allowed`);
  const ip = parseIPSloppy(raw)!;
  if (ip.v4 && raw.includes(':')) fail(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return ip;
}

function parsePrefix(raw: string): KubeCIDR {
  const prefixError = (reason: string): never =>
    fail(`network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(raw)}): ${reason}`);
  const slash = raw.lastIndexOf('/');
  if (slash < 0) return prefixError("no '/'");
  const addrText = raw.slice(0, slash);
  const bitsText = raw.slice(slash + 1);
  if (addrText.includes('%')) return prefixError('IPv6 zones cannot be present in a prefix');
  const problem = addrProblem(addrText);
  if (problem !== undefined) return prefixError(`ParseAddr(${JSON.stringify(addrText)}): ${problem}`);
  const ip = parseIPSloppy(addrText)!;
  const mapped = ip.v4 && addrText.includes(':');
  if (!/^(0|[1-9]\d*)$/.test(bitsText)) return prefixError(`bad bits after slash: ${JSON.stringify(bitsText)}`);
  const bits = Number(bitsText);
  const max = mapped ? 128 : ip.bytes.length * 8;
  if (bits > max) return prefixError(`prefix length out of range`);
  if (mapped) fail(`network address parse error during conversion from string: IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return new KubeCIDR(ip, bits);
}

const isV4 = (ip: ParsedIP): boolean => ip.bytes.length === 4;
const inRange = (ip: ParsedIP, base: string, bits: number): boolean => {
  const b = parseIPSloppy(base)!;
  if (b.bytes.length !== ip.bytes.length) return false;
  const shift = BigInt(ip.bytes.length * 8 - bits);
  return ipToBigInt(ip) >> shift === ipToBigInt(b) >> shift;
};

function masked(c: KubeCIDR): KubeCIDR {
  const shift = BigInt(c.addr.bytes.length * 8 - c.bits);
  return new KubeCIDR(bigIntToIP((ipToBigInt(c.addr) >> shift) << shift, isV4(c.addr)), c.bits);
}

function contains(c: KubeCIDR, ip: ParsedIP): boolean {
  if (isV4(c.addr) !== isV4(ip)) return false;
  const shift = BigInt(ip.bytes.length * 8 - c.bits);
  return ipToBigInt(ip) >> shift === ipToBigInt(c.addr) >> shift;
}

const isLoopback = (ip: ParsedIP): boolean => (isV4(ip) ? ip.bytes[0] === 127 : ipToBigInt(ip) === 1n);
const isUnspecified = (ip: ParsedIP): boolean => ipToBigInt(ip) === 0n;
const isMulticast = (ip: ParsedIP): boolean => (isV4(ip) ? inRange(ip, '224.0.0.0', 4) : ip.bytes[0] === 0xff);
const isLinkLocalUnicast = (ip: ParsedIP): boolean => (isV4(ip) ? inRange(ip, '169.254.0.0', 16) : inRange(ip, 'fe80::', 10));
const isLinkLocalMulticast = (ip: ParsedIP): boolean => (isV4(ip) ? inRange(ip, '224.0.0.0', 24) : inRange(ip, 'ff02::', 16));
const isGlobalUnicast = (ip: ParsedIP): boolean =>
  !isUnspecified(ip) && !(isV4(ip) && ipToBigInt(ip) === 0xffffffffn) && !isLoopback(ip) && !isMulticast(ip) && !isLinkLocalUnicast(ip);

const ok = (f: () => unknown): boolean => {
  try { f(); return true; } catch { return false; }
};

export function registerNet(env: Environment): void {
  env.registerType('net.IP', KubeIP);
  env.registerType('net.CIDR', KubeCIDR);
  namespace(env, 'ip', 'kubernetes.IPNamespace');
  def(env, 'ip(string): net.IP', (s: string) => new KubeIP(parseAddr(s)));
  def(env, 'isIP(string): bool', (s: string) => ok(() => parseAddr(s)));
  def(env, 'kubernetes.IPNamespace.isCanonical(string): bool', (_ns: unknown, s: string) => formatIP(parseAddr(s)) === s);
  def(env, 'net.IP.family(): int', (ip: KubeIP) => (isV4(ip.addr) ? 4n : 6n));
  def(env, 'net.IP.isUnspecified(): bool', (ip: KubeIP) => isUnspecified(ip.addr));
  def(env, 'net.IP.isLoopback(): bool', (ip: KubeIP) => isLoopback(ip.addr));
  def(env, 'net.IP.isLinkLocalMulticast(): bool', (ip: KubeIP) => isLinkLocalMulticast(ip.addr));
  def(env, 'net.IP.isLinkLocalUnicast(): bool', (ip: KubeIP) => isLinkLocalUnicast(ip.addr));
  def(env, 'net.IP.isGlobalUnicast(): bool', (ip: KubeIP) => isGlobalUnicast(ip.addr));
  def(env, 'string(net.IP): string', (ip: KubeIP) => ip.toString());
  env.registerOperator('net.IP == net.IP', (a: KubeIP, b: KubeIP) => a.toString() === b.toString());

  def(env, 'cidr(string): net.CIDR', (s: string) => parsePrefix(s));
  def(env, 'isCIDR(string): bool', (s: string) => ok(() => parsePrefix(s)));
  def(env, 'net.CIDR.containsIP(string): bool', (c: KubeCIDR, s: string) => contains(c, parseAddr(s)));
  def(env, 'net.CIDR.containsIP(net.IP): bool', (c: KubeCIDR, ip: KubeIP) => contains(c, ip.addr));
  const containsCIDR = (c: KubeCIDR, o: KubeCIDR): boolean => c.bits <= o.bits && contains(c, o.addr);
  def(env, 'net.CIDR.containsCIDR(string): bool', (c: KubeCIDR, s: string) => containsCIDR(c, parsePrefix(s)));
  def(env, 'net.CIDR.containsCIDR(net.CIDR): bool', (c: KubeCIDR, o: KubeCIDR) => containsCIDR(c, o));
  def(env, 'net.CIDR.ip(): net.IP', (c: KubeCIDR) => new KubeIP(c.addr));
  def(env, 'net.CIDR.prefixLength(): int', (c: KubeCIDR) => BigInt(c.bits));
  def(env, 'net.CIDR.masked(): net.CIDR', (c: KubeCIDR) => masked(c));
  def(env, 'string(net.CIDR): string', (c: KubeCIDR) => c.toString());
  env.registerOperator('net.CIDR == net.CIDR', (a: KubeCIDR, b: KubeCIDR) => a.toString() === b.toString());
}
