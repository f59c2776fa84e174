// The certificate-based authenticators of `kapi serve`: --requestheader-client-ca-file (front
// proxies naming the user in headers) and --client-ca-file (CN/O of the client certificate), in
// kube's order, plus what the extension-apiserver-authentication ConfigMap publishes. Without
// --client-ca-file, a kapi that made its own CA trusts it for client certificates, so the admin
// kubeconfig can carry a client certificate.
// Counterpart of pkg/kubeapiserver/options/authentication.go (ClientCert, RequestHeader).
import type { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Authenticator } from '../authn/authenticator.ts';
import { newRequestHeaderAuthenticator } from '../authn/request-header.ts';
import { newX509Authenticator, parseCABundle } from '../authn/x509.ts';
import type { ClusterAuthenticationInfo } from '../controlplane/cluster-authentication-trust.ts';
import { FlagError, type ServeOptions } from './flags.ts';
import { openError } from './service-account-keys.ts';

export interface ClientCertAuthentication {
  readonly authenticators: readonly Authenticator[];
  /** PEM bundles the TLS server names in its certificate request. */
  readonly clientCAs: readonly string[];
  readonly info: ClusterAuthenticationInfo;
  /** Whether client certificates signed by kapi's own CA authenticate (the admin kubeconfig's one then does). */
  readonly trustsOwnCA: boolean;
}

/** Reads a CA bundle as kube does at start: a missing, empty or certificate-less file stops the server with kube's message. */
async function loadBundle(name: 'client-ca-bundle' | 'request-header', path: string): Promise<{ pem: string; certs: X509Certificate[] }> {
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch (err) {
    throw new FlagError(openError(path, err));
  }
  if (pem === '') throw new FlagError(`missing content for CA bundle "${name}::${path}"`);
  try {
    return { pem, certs: parseCABundle(pem) };
  } catch (err) {
    throw new FlagError(`error loading CA bundle for "${name}::${path}": ${(err as Error).message}`);
  }
}

export async function clientCertAuthentication(
  opts: ServeOptions, ownCA: { caCert: string } | undefined,
): Promise<ClientCertAuthentication> {
  const authenticators: Authenticator[] = [];
  const clientCAs: string[] = [];
  let info: ClusterAuthenticationInfo = {};
  const rh = opts.requestHeader;
  const rhBundle = rh.clientCAFile === undefined ? undefined : await loadBundle('request-header', rh.clientCAFile);
  const client = opts.clientCAFile !== undefined ? await loadBundle('client-ca-bundle', opts.clientCAFile)
    : ownCA !== undefined ? { pem: ownCA.caCert, certs: parseCABundle(ownCA.caCert) } : undefined;
  if (rhBundle !== undefined && client !== undefined && rh.allowedNames.length === 0 &&
    rhBundle.certs.some((r) => client.certs.some((c) => c.raw.equals(r.raw)))) {
    throw new FlagError('--requestheader-client-ca-file and --client-ca-file contain overlapping certificates; --requestheader-allowed-names must be specified to ensure regular client certificates cannot set authenticating proxy headers for arbitrary users');
  }
  if (rhBundle !== undefined) {
    const roots = rhBundle.certs;
    authenticators.push(newRequestHeaderAuthenticator(() => roots, rh));
    clientCAs.push(rhBundle.pem);
    info = { requestHeader: { ...rh, clientCA: rhBundle.pem } };
  }
  if (client !== undefined) {
    const roots = client.certs;
    authenticators.push(newX509Authenticator(() => roots));
    clientCAs.push(client.pem);
    info = { ...info, clientCA: client.pem };
  }
  const own = ownCA === undefined ? undefined : parseCABundle(ownCA.caCert)[0];
  const trustsOwnCA = own !== undefined && client !== undefined && client.certs.some((c) => c.raw.equals(own.raw));
  return { authenticators, clientCAs, info, trustsOwnCA };
}
