// @peculiar/x509 (with asn1js under it) on first use: evaluating it was a fifth of the server's
// module load, and a restart with its certificates on disk, like most requests, never needs it.
// Counterpart of nothing in kube (Go links crypto/x509 statically).
import { webcrypto } from 'node:crypto';

export type X509Lib = typeof import('@peculiar/x509');

let loading: Promise<X509Lib> | undefined;

/** The library, loaded once; its crypto provider is Node's WebCrypto. */
export function loadX509(): Promise<X509Lib> {
  // The CommonJS module's exports object: Node's ESM loader and esbuild's bundle both give it as
  // `default` (the bundle gives nothing else).
  loading ??= import('@peculiar/x509').then(({ default: lib }) => {
    lib.cryptoProvider.set(webcrypto);
    return lib;
  });
  return loading;
}
