// Just enough of Go's encoding/pem, encoding/asn1 and crypto/x509 to check what the certificates
// API validates: the first PEM block of a CSR and its self-signature, and certificate bundles.
import { createPublicKey, verify, X509Certificate } from 'node:crypto';

export interface PemBlock { type: string; headers: Record<string, string>; bytes: Buffer; rest: string }

const beginRe = /-----BEGIN ([^\n-]*)-----\r?\n/;

/** pem.Decode: the first block in `text`, or undefined when there is none. */
function decodePEM(text: string): PemBlock | undefined {
  let s = text;
  for (;;) {
    const m = beginRe.exec(s);
    if (m === null) return undefined;
    const type = m[1] ?? '';
    const afterBegin = s.slice(m.index + m[0].length);
    const endMarker = `-----END ${type}-----`;
    const end = afterBegin.indexOf(endMarker);
    if (end < 0) { s = afterBegin; continue; }
    const body = afterBegin.slice(0, end);
    const headers: Record<string, string> = {};
    const lines = body.split(/\r?\n/);
    let i = 0;
    for (; i < lines.length; i++) {
      const line = lines[i] ?? '';
      const colon = line.indexOf(':');
      if (colon < 0) break;
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
    const b64 = lines.slice(i).join('').replace(/\s/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) { s = afterBegin; continue; }
    return { type, headers, bytes: Buffer.from(b64, 'base64'), rest: afterBegin.slice(end + endMarker.length).replace(/^\r?\n/, '') };
  }
}

interface TLV { tag: number; start: number; headerLength: number; length: number }

class ASN1Error extends Error {}

function readTLV(buf: Buffer, offset: number): TLV {
  if (offset + 2 > buf.length) throw new ASN1Error('asn1: syntax error: data truncated');
  const tag = buf[offset] ?? 0;
  let len = buf[offset + 1] ?? 0;
  let header = 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new ASN1Error('asn1: syntax error: indefinite length found (not DER)');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (buf[offset + 2 + i] ?? 0);
    header += n;
  }
  if (offset + header + len > buf.length) throw new ASN1Error('asn1: syntax error: data truncated');
  return { tag, start: offset, headerLength: header, length: len };
}

const SEQUENCE = 0x30;
const content = (buf: Buffer, t: TLV): Buffer => buf.subarray(t.start + t.headerLength, t.start + t.headerLength + t.length);
const whole = (buf: Buffer, t: TLV): Buffer => buf.subarray(t.start, t.start + t.headerLength + t.length);

function expect(t: TLV, tag: number): void {
  if (t.tag !== tag) throw new ASN1Error('asn1: structure error: tags don\'t match');
}

function oidString(b: Buffer): string {
  const parts: number[] = [];
  const first = b[0] ?? 0;
  parts.push(Math.floor(first / 40), first % 40);
  let v = 0;
  for (let i = 1; i < b.length; i++) {
    const x = b[i] ?? 0;
    v = v * 128 + (x & 0x7f);
    if ((x & 0x80) === 0) { parts.push(v); v = 0; }
  }
  return parts.join('.');
}

interface ParsedCSR { tbs: Buffer; algorithm: string; signature: Buffer; spki: Buffer }

/** x509.ParseCertificateRequest, reduced to what the signature check needs. */
function parseCSR(der: Buffer): ParsedCSR {
  const outer = readTLV(der, 0);
  expect(outer, SEQUENCE);
  if (outer.start + outer.headerLength + outer.length !== der.length) throw new ASN1Error('x509: trailing data after X.509 certificate request');
  const body = content(der, outer);
  const info = readTLV(body, 0);
  expect(info, SEQUENCE);
  const alg = readTLV(body, info.headerLength + info.length);
  expect(alg, SEQUENCE);
  const sig = readTLV(body, alg.start + alg.headerLength + alg.length);
  expect(sig, 0x03);
  const oid = readTLV(content(body, alg), 0);
  expect(oid, 0x06);
  const infoBody = content(body, info);
  const version = readTLV(infoBody, 0);
  expect(version, 0x02);
  const subject = readTLV(infoBody, version.headerLength + version.length);
  expect(subject, SEQUENCE);
  const spki = readTLV(infoBody, subject.start + subject.headerLength + subject.length);
  expect(spki, SEQUENCE);
  return {
    tbs: whole(body, info),
    algorithm: oidString(content(content(body, alg), oid)),
    signature: content(body, sig).subarray(1),
    spki: whole(infoBody, spki),
  };
}

const HASHES: Record<string, { hash: string | null; family: 'RSA' | 'ECDSA' | 'Ed25519' }> = {
  '1.2.840.113549.1.1.5': { hash: 'sha1', family: 'RSA' },
  '1.2.840.113549.1.1.11': { hash: 'sha256', family: 'RSA' },
  '1.2.840.113549.1.1.12': { hash: 'sha384', family: 'RSA' },
  '1.2.840.113549.1.1.13': { hash: 'sha512', family: 'RSA' },
  '1.2.840.10045.4.1': { hash: 'sha1', family: 'ECDSA' },
  '1.2.840.10045.4.3.2': { hash: 'sha256', family: 'ECDSA' },
  '1.2.840.10045.4.3.3': { hash: 'sha384', family: 'ECDSA' },
  '1.2.840.10045.4.3.4': { hash: 'sha512', family: 'ECDSA' },
  '1.3.101.112': { hash: null, family: 'Ed25519' },
};

const FAILURE: Record<'RSA' | 'ECDSA' | 'Ed25519', string> = {
  RSA: 'crypto/rsa: verification error',
  ECDSA: 'x509: ECDSA verification failure',
  Ed25519: 'x509: Ed25519 verification failure',
};

/** certificates.ParseCSR + CheckSignature: undefined when the PEM CSR is well formed and self-signed, else Go's error text. */
export function checkCSR(pem: Buffer): string | undefined {
  const block = decodePEM(pem.toString('latin1'));
  if (block === undefined || block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  let csr: ParsedCSR;
  try {
    csr = parseCSR(block.bytes);
  } catch (err) {
    return err instanceof ASN1Error ? err.message : 'asn1: structure error';
  }
  const alg = HASHES[csr.algorithm];
  if (alg === undefined) return 'x509: cannot verify signature: algorithm unimplemented';
  try {
    const key = createPublicKey({ key: csr.spki, format: 'der', type: 'spki' });
    return verify(alg.hash, csr.tbs, key, csr.signature) ? undefined : FAILURE[alg.family];
  } catch {
    return FAILURE[alg.family];
  }
}

/** validateCertificate of the CSR status and trust bundles: only CERTIFICATE blocks, no headers, at least one. */
export function checkCertificates(pem: string, what = 'CERTIFICATE PEM block'): string | undefined {
  let rest = pem;
  let blocks = 0;
  for (let block = decodePEM(rest); block !== undefined; block = decodePEM(rest)) {
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (Object.keys(block.headers).length !== 0) return 'no PEM block headers are permitted';
    try { new X509Certificate(block.bytes); } catch { return 'x509: malformed certificate'; }
    blocks++;
    rest = block.rest;
  }
  return blocks === 0 ? `must contain at least one ${what}` : undefined;
}
