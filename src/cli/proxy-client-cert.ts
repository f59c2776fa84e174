// --proxy-client-cert-file / --proxy-client-key-file: the client certificate the aggregator
// presents to the backends of APIServices. As kube, the pair is used only when both flags are
// set, and read and checked at start: a missing or empty file, or a key that is not the
// certificate's, stops the server with kube's message.
// Counterpart of NewDynamicServingContentFromFiles (apiserver/pkg/server/dynamiccertificates)
// as kube-aggregator's apiserver.go calls it ("aggregator-proxy-cert").
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ProxyClientCert } from '../aggregator/proxy/backend.ts';
import { FlagError } from './flags.ts';
import { openError } from './service-account-keys.ts';

const PEM = /-----BEGIN [A-Z0-9 ]+-----[\s\S]*?-----END [A-Z0-9 ]+-----/;

async function read(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new FlagError(openError(path, err));
  }
}

/** The pair, or undefined unless both flags are set. Rejects with FlagError as kube fails to start. */
export async function loadProxyClientCert(certFile: string | undefined, keyFile: string | undefined): Promise<ProxyClientCert | undefined> {
  if (certFile === undefined || keyFile === undefined) return undefined;
  const cert = await read(certFile);
  const key = await read(keyFile);
  if (cert === '' || key === '') throw new FlagError(`missing content for serving cert "aggregator-proxy-cert::${certFile}::${keyFile}"`);
  // tls.X509KeyPair's checks, in its order and words.
  if (!PEM.test(cert)) throw new FlagError('tls: failed to find any PEM data in certificate input');
  if (!PEM.test(key)) throw new FlagError('tls: failed to find any PEM data in key input');
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new FlagError(`x509: malformed certificate: ${(err as Error).message}`);
  }
  try {
    if (!x509.checkPrivateKey(createPrivateKey(key))) throw new FlagError('tls: private key does not match public key');
  } catch (err) {
    if (err instanceof FlagError) throw err;
    throw new FlagError('tls: failed to parse private key');
  }
  return { cert, key };
}
