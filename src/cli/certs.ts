// Self-managed PKI for `kapi serve`: a CA and a serving certificate signed by it, kept under
// <dataDir>/pki/ and reused across starts, plus the admin bearer token. kube-apiserver expects
// these from the operator (kubeadm makes them); kapi makes them on first start.
// Counterpart of cmd/kube-apiserver/app/options (self-signed serving certificates) and
// k8s.io/apiserver/pkg/server/options/serving.go.
import { X509Certificate as NodeX509, createPrivateKey, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { newSelfSignedCACert, newSignedCert } from '../apimachinery/util/cert.ts';

const DAY_MS = 86_400_000;
const CA_VALIDITY_DAYS = 3650;
const SERVING_VALIDITY_DAYS = 365;
/** A serving certificate this close to expiry is replaced at start. */
const RENEW_BEFORE_DAYS = 30;

/** The DNS names kube-apiserver's serving certificate carries for in-cluster clients. */
const DEFAULT_SERVING_HOSTS: readonly string[] = [
  'localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local',
];
const DEFAULT_SERVING_IPS: readonly string[] = ['127.0.0.1', '::1'];

export interface PKIOptions {
  readonly dataDir: string;
  /** Extra DNS names (e.g. the bind address when it is a name). */
  readonly hosts?: readonly string[];
  /** Extra IP addresses: the first IP of the service cluster range, the bind address. */
  readonly ips?: readonly string[];
  /** Overrides the clock (tests). */
  readonly now?: Date;
}

export interface PKI {
  readonly caCert: string;
  readonly caKey: string;
  readonly serverCert: string;
  readonly serverKey: string;
  /** Whether the serving certificate was (re)generated during this call. */
  readonly servingRegenerated: boolean;
  readonly caGenerated: boolean;
}

export interface PKIPaths {
  readonly dir: string;
  readonly caCert: string;
  readonly caKey: string;
  readonly serverCert: string;
  readonly serverKey: string;
}

export function pkiPaths(dataDir: string): PKIPaths {
  const dir = join(dataDir, 'pki');
  return {
    dir, caCert: join(dir, 'ca.crt'), caKey: join(dir, 'ca.key'),
    serverCert: join(dir, 'apiserver.crt'), serverKey: join(dir, 'apiserver.key'),
  };
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Writes through a temporary file so a crash never leaves half a key behind. */
async function writeAtomic(path: string, data: string, mode: number): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, data, { mode });
  await rename(tmp, path);
}

/** True when the serving pair is usable: signed by the CA, matching key, in date, covering every name. */
function servingCovers(
  pair: { cert: string; key: string }, caPem: string, hosts: readonly string[], ips: readonly string[], now: Date,
): boolean {
  try {
    const cert = new NodeX509(pair.cert);
    const ca = new NodeX509(caPem);
    if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) return false;
    if (!cert.checkPrivateKey(createPrivateKey(pair.key))) return false;
    if (new Date(cert.validTo).getTime() - now.getTime() < RENEW_BEFORE_DAYS * DAY_MS) return false;
    if (new Date(cert.validFrom).getTime() > now.getTime()) return false;
    return hosts.every((h) => cert.checkHost(h, { subject: 'never', wildcards: false }) === h) &&
      ips.every((ip) => cert.checkIP(ip) !== undefined);
  } catch {
    return false;
  }
}

function caUsable(ca: { cert: string; key: string }, now: Date): boolean {
  try {
    const cert = new NodeX509(ca.cert);
    return cert.ca && cert.checkPrivateKey(createPrivateKey(ca.key)) && new Date(cert.validTo).getTime() > now.getTime();
  } catch {
    return false;
  }
}

const unique = (xs: readonly string[]): string[] => [...new Set(xs)];

/**
 * Loads or creates <dataDir>/pki/{ca.crt,ca.key,apiserver.crt,apiserver.key} (keys mode 0600).
 * The CA is kept while it is valid; the serving certificate is regenerated when it does not
 * cover the requested names, is about to expire, or was not signed by the CA.
 */
export async function ensurePKI(opts: PKIOptions): Promise<PKI> {
  const now = opts.now ?? new Date();
  const paths = pkiPaths(opts.dataDir);
  await mkdir(paths.dir, { recursive: true, mode: 0o700 });
  const extra = [...(opts.hosts ?? []), ...(opts.ips ?? [])];
  const ips = unique([...DEFAULT_SERVING_IPS, ...extra.filter((h) => isIP(h) !== 0)]);
  const hosts = unique([...DEFAULT_SERVING_HOSTS, ...extra.filter((h) => isIP(h) === 0 && h !== '')]);
  // The wildcard bind addresses are not names a client can dial; they never go into the SANs.
  const sanIPs = ips.filter((ip) => ip !== '0.0.0.0' && ip !== '::');

  let caGenerated = false;
  const caCert = await readOptional(paths.caCert);
  const caKey = await readOptional(paths.caKey);
  let ca = caCert !== undefined && caKey !== undefined ? { cert: caCert, key: caKey } : undefined;
  if (ca === undefined || !caUsable(ca, now)) {
    ca = await newSelfSignedCACert({ commonName: 'kapi-ca', validityDays: CA_VALIDITY_DAYS, now });
    await writeAtomic(paths.caKey, ca.key, 0o600);
    await writeAtomic(paths.caCert, ca.cert, 0o644);
    caGenerated = true;
  }

  const servCert = await readOptional(paths.serverCert);
  const servKey = await readOptional(paths.serverKey);
  let serving = servCert !== undefined && servKey !== undefined ? { cert: servCert, key: servKey } : undefined;
  let servingRegenerated = false;
  if (serving === undefined || caGenerated || !servingCovers(serving, ca.cert, hosts, sanIPs, now)) {
    serving = await newSignedCert(ca, {
      commonName: 'kube-apiserver', hosts, ips: sanIPs, usages: ['serverAuth'], validityDays: SERVING_VALIDITY_DAYS, now,
    });
    await writeAtomic(paths.serverKey, serving.key, 0o600);
    await writeAtomic(paths.serverCert, serving.cert, 0o644);
    servingRegenerated = true;
  }
  return { caCert: ca.cert, caKey: ca.key, serverCert: serving.cert, serverKey: serving.key, servingRegenerated, caGenerated };
}

/** The admin's client certificate: CN kapi-admin, O system:masters (the admin token's user). */
export const ADMIN_CLIENT_CN = 'kapi-admin';
export const ADMIN_CLIENT_GROUPS: readonly string[] = ['system:masters'];

/**
 * Loads or creates <dataDir>/pki/admin.{crt,key}: a client certificate signed by the CA, replaced
 * when it was not signed by this CA, its key does not match, or it is about to expire.
 */
export async function ensureAdminClientCert(dataDir: string, ca: { cert: string; key: string }, now = new Date()): Promise<{ cert: string; key: string }> {
  const dir = pkiPaths(dataDir).dir;
  const certPath = join(dir, 'admin.crt');
  const keyPath = join(dir, 'admin.key');
  const cert = await readOptional(certPath);
  const key = await readOptional(keyPath);
  if (cert !== undefined && key !== undefined && servingCovers({ cert, key }, ca.cert, [], [], now)) return { cert, key };
  const signed = await newSignedCert(ca, {
    commonName: ADMIN_CLIENT_CN, organizations: ADMIN_CLIENT_GROUPS, usages: ['clientAuth'], validityDays: SERVING_VALIDITY_DAYS, now,
  });
  // As client-go's keyutil writes an EC key: "EC PRIVATE KEY" (SEC1). Some clients (fabric8's
  // Java client) cannot read a PKCS#8 EC key from a kubeconfig.
  const pair = { cert: signed.cert, key: String(createPrivateKey(signed.key).export({ type: 'sec1', format: 'pem' })) };
  await writeAtomic(keyPath, pair.key, 0o600);
  await writeAtomic(certPath, pair.cert, 0o644);
  return pair;
}

/** The path of the admin bearer token file. */
export const adminTokenPath = (dataDir: string): string => join(dataDir, 'admin-token');

/** Loads or creates <dataDir>/admin-token (mode 0600): 32 random bytes, base64url. */
export async function ensureAdminToken(dataDir: string): Promise<string> {
  const path = adminTokenPath(dataDir);
  const existing = (await readOptional(path))?.trim();
  if (existing !== undefined && existing !== '') return existing;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  await writeAtomic(path, `${token}\n`, 0o600);
  return token;
}
