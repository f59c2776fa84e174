// Client certificate authentication (--client-ca-file): the certificate the client presented in
// the TLS handshake is verified against the CA bundle (with the rest of the presented chain as
// intermediates, each certificate in date, every one allowing client auth), then the subject's
// CN is the user, its O values the groups and its 1.3.6.1.4.1.57683.2 value the UID. The
// verifying-only variant (for front proxies) checks the chain and an allowed CN list, then hands
// the request to another authenticator.
// Counterpart of k8s.io/apiserver/pkg/authentication/request/x509.
import { X509Certificate, createHash } from 'node:crypto';
import { loadX509, type X509Lib } from '../apimachinery/util/x509-lib.ts';
import type { UserInfo } from '../apimachinery/request/context.ts';
import type { AuthRequest, AuthResponse, Authenticator } from './authenticator.ts';

/** The extra key carrying the credential's fingerprint (user.CredentialIDKey). */
export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';
/** kube's OID for a UID in a certificate subject (asn1util.X509UID). */
const UID_OID = '1.3.6.1.4.1.57683.2';
const CLIENT_AUTH_EKU = '1.3.6.1.5.5.7.3.2';
const ANY_EKU = '2.5.29.37.0';
/** Go's maxChainSignatureChecks: a hostile set of intermediates cannot make the search long. */
const MAX_SIGNATURE_CHECKS = 100;

/** The CA bundle: parses every PEM certificate; throws when there is none. */
export function parseCABundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('data does not contain any valid RSA or ECDSA certificates');
  return blocks.map((b) => new X509Certificate(b));
}

/** Go's time format in x509's expiry message: 2006-01-02T15:04:05Z. */
const goTime = (d: Date): string => `${d.toISOString().slice(0, 19)}Z`;

/** SN=<decimal>, SKID=<AA:BB>, AKID=<..>: how kube names a certificate in its logs. */
function certificateIdentifier(c: X509Certificate): string {
  return `SN=${BigInt(`0x${c.serialNumber}`).toString()}`;
}

function inDate(c: X509Certificate, now: Date): boolean {
  return new Date(c.validFrom).getTime() <= now.getTime() && now.getTime() <= new Date(c.validTo).getTime();
}

const issuedBy = (c: X509Certificate, issuer: X509Certificate, budget: { checks: number }): boolean => {
  if (!c.checkIssued(issuer)) return false;
  if (budget.checks >= MAX_SIGNATURE_CHECKS) throw new Error('x509: signature check attempts limit reached while verifying certificate chain');
  budget.checks++;
  try {
    return c.verify(issuer.publicKey);
  } catch {
    return false;
  }
};

/** Every certificate of the chain allows client auth (or any usage, or names no extended usage). */
const allowsClientAuth = (chain: readonly X509Certificate[]): boolean =>
  chain.every((c) => c.keyUsage === undefined || c.keyUsage.includes(CLIENT_AUTH_EKU) || c.keyUsage.includes(ANY_EKU));

/**
 * Go's Certificate.Verify for client auth: a chain from the leaf through the presented
 * intermediates to one of the roots. Throws x509's message when there is none.
 */
export function verifyClientChain(
  leaf: X509Certificate, intermediates: readonly X509Certificate[], roots: readonly X509Certificate[], now: Date,
): X509Certificate[] {
  if (!inDate(leaf, now)) {
    const after = now.getTime() > new Date(leaf.validTo).getTime();
    throw new Error(`x509: certificate has expired or is not yet valid: current time ${goTime(now)} is ${after
      ? `after ${goTime(new Date(leaf.validTo))}` : `before ${goTime(new Date(leaf.validFrom))}`}`);
  }
  if (roots.some((r) => r.raw.equals(leaf.raw))) return [leaf];
  let incompatibleUsage = false;
  const budget = { checks: 0 };
  const build = (chain: X509Certificate[]): X509Certificate[] | undefined => {
    const current = chain[chain.length - 1] as X509Certificate;
    for (const r of roots) {
      if (!inDate(r, now) || !issuedBy(current, r, budget)) continue;
      const full = [...chain, r];
      if (allowsClientAuth(full)) return full;
      incompatibleUsage = true;
    }
    for (const i of intermediates) {
      if (!i.ca || !inDate(i, now) || chain.some((c) => c.raw.equals(i.raw)) || !issuedBy(current, i, budget)) continue;
      const found = build([...chain, i]);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const chain = build([leaf]);
  if (chain !== undefined) return chain;
  throw new Error(incompatibleUsage ? 'x509: certificate specifies an incompatible key usage' : 'x509: certificate signed by unknown authority');
}

/** kube's CommonNameUserConversion: CN (required), O as groups, the UID attribute, the fingerprint. */
/** The subject's attributes in order, from the DER (Node's subject text loses escaping). */
function subjectAttributes(x509: X509Lib, leaf: X509Certificate): { cn: string; groups: string[]; uids: string[] } {
  let cn = '';
  const groups: string[] = [];
  const uids: string[] = [];
  for (const rdn of new x509.X509Certificate(leaf.raw).subjectName.toJSON()) {
    for (const [type, values] of Object.entries(rdn)) {
      // As Go's pkix.Name: the last CN wins, every O is a group.
      if (type === 'CN') cn = values[values.length - 1] ?? cn;
      else if (type === 'O') groups.push(...values);
      else if (type === UID_OID) uids.push(...values);
    }
  }
  return { cn, groups, uids };
}

/** Async: the DER parser loads on first use (apimachinery/util/x509-lib.ts). */
export async function userFromCertificate(leaf: X509Certificate): Promise<UserInfo | undefined> {
  const { cn, groups, uids } = subjectAttributes(await loadX509(), leaf);
  if (cn === '') return undefined;
  if (uids.length > 1) throw new Error(`expected 1 UID, but found multiple: [${uids.join(' ')}]`);
  if (uids[0] === '') throw new Error('UID cannot be an empty string');
  const id = `X509SHA256=${createHash('sha256').update(leaf.raw).digest('hex')}`;
  return { name: cn, ...(uids[0] !== undefined ? { uid: uids[0] } : {}), groups, extra: { [CREDENTIAL_ID_KEY]: [id] } };
}

function presented(req: AuthRequest): { leaf: X509Certificate; intermediates: X509Certificate[] } | undefined {
  const certs = req.peerCertificates ?? [];
  const [first, ...rest] = certs;
  if (first === undefined) return undefined;
  return { leaf: new X509Certificate(first), intermediates: rest.map((c) => new X509Certificate(c)) };
}

/** Whose CA bundle: read on every request, so a reloaded bundle takes effect at once. */
export type CAProvider = () => readonly X509Certificate[];

export function newX509Authenticator(roots: CAProvider, now: () => Date = () => new Date()): Authenticator {
  return {
    authenticate(req: AuthRequest): Promise<AuthResponse | undefined> {
      const p = presented(req);
      if (p === undefined) return Promise.resolve(undefined);
      try {
        verifyClientChain(p.leaf, p.intermediates, roots(), now());
      } catch (err) {
        return Promise.reject(new Error(`verifying certificate ${certificateIdentifier(p.leaf)} failed: ${(err as Error).message}`));
      }
      return userFromCertificate(p.leaf).then((user) => (user === undefined ? undefined : { user }));
    },
  };
}

/**
 * x509.Verifier: the presented certificate must chain to `roots` and, when `allowedNames` is not
 * empty, have one of them as its CN; then `inner` decides who the user is.
 */
export function newX509Verifier(roots: CAProvider, allowedNames: readonly string[], inner: Authenticator, now: () => Date = () => new Date()): Authenticator {
  return {
    async authenticate(req: AuthRequest): Promise<AuthResponse | undefined> {
      const p = presented(req);
      if (p === undefined) return undefined;
      verifyClientChain(p.leaf, p.intermediates, roots(), now());
      if (allowedNames.length > 0) {
        const { cn } = subjectAttributes(await loadX509(), p.leaf);
        if (!allowedNames.includes(cn)) throw new Error(`x509: subject with cn=${cn} is not in the allowed list`);
      }
      return await inner.authenticate(req);
    },
  };
}
