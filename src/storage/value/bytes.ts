// Backend values are strings; encrypted values are bytes. A value that starts with kube's
// `k8s:enc:` prefix is carried as a binary (latin1) string, one char per byte, anything else as
// UTF-8 text, so both kinds round-trip through every backend byte for byte.
// No Go counterpart: Go keeps values as []byte throughout; kapi backends carry strings.
const ENC = 'k8s:enc:';

export function valueToBytes(value: string): Buffer {
  return Buffer.from(value, value.startsWith(ENC) ? 'latin1' : 'utf8');
}

export function bytesToValue(bytes: Buffer): string {
  const binary = bytes.length >= ENC.length && bytes.toString('latin1', 0, ENC.length) === ENC;
  return bytes.toString(binary ? 'latin1' : 'utf8');
}
