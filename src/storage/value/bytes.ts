// Backend values are byte strings: one char per byte (latin1), whatever the bytes are (protobuf's
// `k8s\0` envelope, UTF-8 JSON, kube's `k8s:enc:` ciphertexts), so every value round-trips through
// every backend and transformer byte for byte.
// No Go counterpart: Go keeps values as []byte throughout; kapi backends carry strings.

export function valueToBytes(value: string): Buffer {
  return Buffer.from(value, 'latin1');
}

export function bytesToValue(bytes: Buffer): string {
  return bytes.toString('latin1');
}
