// Backend values are strings; encrypted and protobuf values are bytes. A value that starts with
// kube's `k8s:enc:` (encryption) or `k8s\0` (protobuf envelope) prefix is carried as a binary
// (latin1) string, one char per byte, anything else as UTF-8 text, so every kind round-trips
// through every backend byte for byte.
// No Go counterpart: Go keeps values as []byte throughout; kapi backends carry strings.
const BINARY_PREFIXES = ['k8s:enc:', 'k8s\u0000'] as const;

const isBinary = (head: string): boolean => BINARY_PREFIXES.some((p) => head.startsWith(p));

export function valueToBytes(value: string): Buffer {
  return Buffer.from(value, isBinary(value.slice(0, 8)) ? 'latin1' : 'utf8');
}

export function bytesToValue(bytes: Buffer): string {
  return bytes.toString(isBinary(bytes.toString('latin1', 0, 8)) ? 'latin1' : 'utf8');
}
