// IP and CIDR parsing and validation with Go's semantics (net.ParseIP, netutils.ParseIPSloppy,
// net.IP.String) and kube's messages (k8s.io/apimachinery/pkg/util/validation/ip.go).
import { invalid, type FieldError, type FieldPath } from '../errors/field-errors.ts';

/** A parsed address: 4 bytes for IPv4 (also for IPv4-mapped IPv6), 16 for IPv6. */
export interface ParsedIP {
  readonly bytes: Uint8Array;
  /** True when written as IPv4 or an IPv4-mapped IPv6 address (Go's To4() != nil). */
  readonly v4: boolean;
}

interface ParseResult { ip: ParsedIP; leadingZeros: boolean; mapped: boolean }

function parseV4(s: string): { bytes: number[]; leadingZeros: boolean } | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  let leadingZeros = false;
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p)) return undefined;
    if (p.length > 1 && p.startsWith('0')) leadingZeros = true;
    const n = Number(p);
    if (n > 255) return undefined;
    bytes.push(n);
  }
  return { bytes, leadingZeros };
}

function parseV6(s: string): { bytes: number[]; leadingZeros: boolean } | undefined {
  let leadingZeros = false;
  let tail: number[] = [];
  let text = s;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    const v4 = parseV4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    leadingZeros = v4.leadingZeros;
    tail = v4.bytes;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0] ?? '');
  const rest = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (head === undefined || rest === undefined) return undefined;
  let all: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return undefined;
    all = [...head, ...new Array<number>(missing).fill(0), ...rest];
  } else {
    if (head.length !== 8) return undefined;
    all = head;
  }
  const bytes = all.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return { bytes, leadingZeros };
}

function parse(s: string): ParseResult | undefined {
  if (s.includes(':')) {
    const r = parseV6(s);
    if (r === undefined) return undefined;
    const mapped = r.bytes.slice(0, 10).every((b) => b === 0) && r.bytes[10] === 0xff && r.bytes[11] === 0xff;
    const bytes = mapped ? Uint8Array.from(r.bytes.slice(12)) : Uint8Array.from(r.bytes);
    return { ip: { bytes, v4: mapped }, leadingZeros: r.leadingZeros, mapped };
  }
  const r = parseV4(s);
  if (r === undefined) return undefined;
  return { ip: { bytes: Uint8Array.from(r.bytes), v4: true }, leadingZeros: r.leadingZeros, mapped: false };
}

/** netutils.ParseIPSloppy: IPv4 parts with leading zeros are read as decimal. */
export function parseIPSloppy(s: string): ParsedIP | undefined {
  return parse(s)?.ip;
}

/** Go's net.IP.String(): dotted quad for IPv4, RFC 5952 for IPv6. */
export function formatIP(ip: ParsedIP): string {
  const b = ip.bytes;
  if (b.length === 4) return Array.from(b).join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((b[i] ?? 0) << 8) | (b[i + 1] ?? 0));
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) { bestStart = i; bestLen = j - i; }
    i = j;
  }
  const hex = (xs: number[]): string => xs.map((g) => g.toString(16)).join(':');
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLen))}`;
}

/** The address as an unsigned integer (for range arithmetic). */
export function ipToBigInt(ip: ParsedIP): bigint {
  let n = 0n;
  for (const x of ip.bytes) n = (n << 8n) | BigInt(x);
  return n;
}

export function bigIntToIP(n: bigint, v4: boolean): ParsedIP {
  const len = v4 ? 4 : 16;
  const bytes = new Uint8Array(len);
  let v = n;
  for (let i = len - 1; i >= 0; i--) { bytes[i] = Number(v & 0xffn); v >>= 8n; }
  return { bytes, v4 };
}

export interface ParsedCIDR {
  /** The network address (host bits cleared). */
  readonly network: ParsedIP;
  /** The address as written (may have host bits). */
  readonly ip: ParsedIP;
  readonly prefixLength: number;
}

export function parseCIDRSloppy(s: string): ParsedCIDR | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIPSloppy(s.slice(0, slash));
  const lenText = s.slice(slash + 1);
  if (ip === undefined || !/^[0-9]{1,3}$/.test(lenText)) return undefined;
  let prefixLength = Number(lenText);
  // An IPv4-mapped IPv6 address ("::ffff:10.0.0.0/104") takes an IPv6 prefix length; Go reads
  // it as the IPv4 network of that length less 96.
  if (ip.v4 && s.slice(0, slash).includes(':')) {
    if (prefixLength < 96 || prefixLength > 128) return undefined;
    prefixLength -= 96;
  }
  const bits = ip.bytes.length * 8;
  if (prefixLength > bits) return undefined;
  const hostBits = BigInt(bits - prefixLength);
  const net = (ipToBigInt(ip) >> hostBits) << hostBits;
  return { network: bigIntToIP(net, ip.v4), ip, prefixLength };
}

export function formatCIDR(c: ParsedCIDR): string {
  return `${formatIP(c.network)}/${c.prefixLength}`;
}

const ipExample = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const cidrExample = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

function parseIPErrors(path: FieldPath, value: string, strict: boolean): { ip?: ParsedIP; errs: FieldError[] } {
  const r = value.includes('%') ? undefined : parse(value);
  if (r === undefined) return { errs: [invalid(path, value, ipExample)] };
  const errs: FieldError[] = [];
  if (strict) {
    if (r.leadingZeros) errs.push(invalid(path, value, 'must not have leading 0s'));
    if (r.mapped) errs.push(invalid(path, value, 'must not be an IPv4-mapped IPv6 address'));
  }
  return { ip: r.ip, errs };
}

/** IsValidIPForLegacyField: sloppy parsing; strict also rejects leading zeros and IPv4-mapped IPv6. */
export function isValidIPForLegacyField(path: FieldPath, value: string, strict: boolean, validOldIPs: readonly string[] = []): FieldError[] {
  if (validOldIPs.includes(value)) return [];
  return parseIPErrors(path, value, strict).errs;
}

/** IsValidIP: strict and canonical. */
export function isValidIP(path: FieldPath, value: string): FieldError[] {
  const { ip, errs } = parseIPErrors(path, value, true);
  if (ip === undefined || errs.length > 0) return errs;
  const canonical = formatIP(ip);
  return value === canonical ? [] : [invalid(path, value, `must be in canonical form (${JSON.stringify(canonical)})`)];
}

function parseCIDRErrors(path: FieldPath, value: string, strict: boolean): { cidr?: ParsedCIDR; errs: FieldError[] } {
  const cidr = parseCIDRSloppy(value);
  if (cidr === undefined) return { errs: [invalid(path, value, cidrExample)] };
  const errs: FieldError[] = [];
  if (strict) {
    const slash = value.indexOf('/');
    const r = parse(value.slice(0, slash));
    const lenText = value.slice(slash + 1);
    if (r?.leadingZeros === true || (lenText.length > 1 && lenText.startsWith('0'))) {
      errs.push(invalid(path, value, 'must not have leading 0s in IP or prefix length'));
    } else if (r?.mapped === true) {
      errs.push(invalid(path, value, 'must not have an IPv4-mapped IPv6 address'));
    } else if (ipToBigInt(cidr.ip) !== ipToBigInt(cidr.network)) {
      errs.push(invalid(path, value, 'must not have bits set beyond the prefix length'));
    }
  }
  return { cidr, errs };
}

export function isValidCIDRForLegacyField(path: FieldPath, value: string, strict: boolean, validOldCIDRs: readonly string[] = []): FieldError[] {
  if (validOldCIDRs.includes(value)) return [];
  return parseCIDRErrors(path, value, strict).errs;
}

/** IsValidCIDR: strict and canonical. */
export function isValidCIDR(path: FieldPath, value: string): FieldError[] {
  const { cidr, errs } = parseCIDRErrors(path, value, true);
  if (cidr === undefined || errs.length > 0) return errs;
  const canonical = formatCIDR(cidr);
  return value === canonical ? [] : [invalid(path, value, `must be in canonical form (${JSON.stringify(canonical)})`)];
}

