// Value transformers between the codec and the backend: what kube's storage/value package does.
// A transformer turns the codec's bytes into the bytes stored (encryption at rest) and back. The
// authenticated data of a value is its full etcd key, so a value copied to another key does not
// decrypt. Counterpart of k8s.io/apiserver/pkg/storage/value/transformer.go.

export interface ReadResult {
  readonly data: Buffer;
  /** The value was not written with the first (write) transformer: rewriting it would change it. */
  readonly stale: boolean;
}

export interface Transformer {
  fromStorage(data: Buffer, key: string): Promise<ReadResult>;
  toStorage(data: Buffer, key: string): Promise<Buffer>;
}

export interface PrefixTransformer {
  /** e.g. `k8s:enc:aescbc:v1:key1:`; empty for identity, which then matches any value. */
  readonly prefix: Buffer;
  readonly transformer: Transformer;
}

/**
 * Reads with the first transformer whose prefix the value has (an empty prefix that fails lets the
 * next try), writes with the first. As kube, a read through any but the first is stale.
 */
export function prefixTransformers(noMatch: string, list: readonly PrefixTransformer[]): Transformer {
  const first = list[0];
  if (first === undefined) throw new Error('at least one transformer is required');
  return {
    async fromStorage(data, key) {
      const errs: Error[] = [];
      for (const [i, t] of list.entries()) {
        if (!startsWith(data, t.prefix)) continue;
        try {
          const out = await t.transformer.fromStorage(data.subarray(t.prefix.length), key);
          return { data: out.data, stale: out.stale || i !== 0 };
        } catch (err) {
          if (t.prefix.length === 0) continue;
          errs.push(err instanceof Error ? err : new Error(String(err)));
        }
      }
      if (errs.length === 1) throw errs[0] ?? new Error(noMatch);
      // kube's utilerrors.NewAggregate: one message, or "[a, b]".
      if (errs.length > 1) throw new Error(`[${[...new Set(errs.map((e) => e.message))].join(', ')}]`);
      throw new Error(noMatch);
    },
    async toStorage(data, key) {
      const out = await first.transformer.toStorage(data, key);
      return first.prefix.length === 0 ? out : Buffer.concat([first.prefix, out]);
    },
  };
}

export function startsWith(data: Buffer, prefix: Buffer): boolean {
  return data.length >= prefix.length && data.subarray(0, prefix.length).equals(prefix);
}

const ENCRYPTED = Buffer.from('k8s:enc:');

/** identity: writes values unchanged, refuses to read encrypted ones (kube's message). */
export const identityTransformer: Transformer = {
  fromStorage(data) {
    if (startsWith(data, ENCRYPTED)) return Promise.reject(new Error('identity transformer tried to read encrypted data'));
    return Promise.resolve({ data, stale: false });
  },
  toStorage: (data) => Promise.resolve(data),
};
