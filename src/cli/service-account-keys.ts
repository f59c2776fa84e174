// --service-account-issuer, --service-account-key-file and --service-account-signing-key-file: the
// issuer that signs service account tokens and the keys and issuers that verify them. kapi signs
// and verifies RS256 (RSA keys) and ES256 (ECDSA P-256 keys), as kube does for those keys; an
// ECDSA key on another curve (kube's ES384/ES512) is refused at start rather than ignored.
// Without a signing key file kapi keeps its own key in <data-dir>/pki/sa.key.
// Counterpart of pkg/kubeapiserver/options/authentication.go (ServiceAccountAuthenticationOptions)
// and k8s.io/client-go/util/keyutil.
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  DEFAULT_SERVICE_ACCOUNT_ISSUER, loadOrCreateServiceAccountKey, newServiceAccountTokenIssuer, type ServiceAccountTokenIssuer,
} from '../authn/serviceaccount/index.ts';
import { signingAlgorithm } from '../authn/serviceaccount/jwt.ts';
import { FlagError, type ServeOptions } from './flags.ts';

const supported = (k: KeyObject): boolean => signingAlgorithm(k) !== undefined;

/** Go's *PathError text for a file that cannot be read. */
export function openError(path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied'
    : code === 'EISDIR' ? 'is a directory' : (err as Error).message;
  return `open ${path}: ${why}`;
}

async function readPEM(path: string, prefix = ''): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new FlagError(`${prefix}${openError(path, err)}`);
  }
}

/** The public keys of a PEM file: each public key, private key and certificate block (keyutil.ParsePublicKeysPEM). */
function publicKeys(pem: string, path: string): KeyObject[] {
  const blocks = pem.match(/-----BEGIN ([A-Z ]+)-----[\s\S]*?-----END \1-----/g) ?? [];
  const keys: KeyObject[] = [];
  for (const b of blocks) {
    const type = /-----BEGIN ([A-Z ]+)-----/.exec(b)?.[1] ?? '';
    // As keyutil: a block that does not parse is skipped, not fatal.
    try {
      if (type === 'CERTIFICATE') keys.push(new X509Certificate(b).publicKey);
      else if (type.endsWith('PRIVATE KEY')) keys.push(createPublicKey(createPrivateKey(b)));
      else if (type.endsWith('PUBLIC KEY')) keys.push(createPublicKey(b));
    } catch {
      continue;
    }
  }
  if (keys.length === 0) throw new FlagError(`error reading public key file ${path}: data does not contain any valid RSA or ECDSA public keys`);
  return keys;
}

export async function serviceAccountIssuer(opts: ServeOptions, dataDir: string): Promise<ServiceAccountTokenIssuer> {
  let privateKey: KeyObject;
  if (opts.serviceAccountSigningKeyFile !== undefined) {
    const path = opts.serviceAccountSigningKeyFile;
    const prefix = 'failed to parse service-account-issuer-key-file: ';
    const pem = await readPEM(path, prefix);
    try {
      privateKey = createPrivateKey(pem);
    } catch {
      throw new FlagError(`${prefix}error reading private key file ${path}: data does not contain a valid RSA or ECDSA private key`);
    }
    if (!supported(privateKey)) throw new FlagError(`--service-account-signing-key-file ${JSON.stringify(path)}: kapi signs service account tokens with RSA (RS256) and ECDSA P-256 (ES256) keys only`);
  } else {
    privateKey = await loadOrCreateServiceAccountKey(dataDir);
  }
  const verificationKeys: KeyObject[] = [];
  for (const path of opts.serviceAccountKeyFiles) {
    const keys = publicKeys(await readPEM(path), path);
    const other = keys.find((k) => !supported(k));
    if (other !== undefined) throw new FlagError(`--service-account-key-file ${JSON.stringify(path)}: kapi verifies RSA (RS256) and ECDSA P-256 (ES256) service account tokens only; the file holds a ${other.asymmetricKeyDetails?.namedCurve ?? other.asymmetricKeyType ?? 'non-EC'} key`);
    verificationKeys.push(...keys);
  }
  const [issuer = DEFAULT_SERVICE_ACCOUNT_ISSUER, ...more] = opts.serviceAccountIssuers;
  const seen = new Set<string>();
  for (const i of opts.serviceAccountIssuers) {
    if (seen.has(i)) throw new FlagError(`service-account-issuer ${JSON.stringify(i)} is already specified`);
    seen.add(i);
  }
  return newServiceAccountTokenIssuer({
    privateKey, issuer, acceptedIssuers: more, verificationKeys,
    maxExpirationSeconds: opts.authn.serviceAccountMaxTokenExpirationSeconds, extendExpiration: opts.authn.serviceAccountExtendTokenExpiration,
  });
}
