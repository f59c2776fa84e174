// The bench's command line: --json, --concurrency <n>, --backend sqlite|etcd|all.
import { parseArgs } from 'node:util';

export type BenchBackend = 'sqlite' | 'etcd';

export interface BenchOptions {
  readonly json: boolean;
  /** Concurrent requests of every throughput phase. */
  readonly workers: number;
  /** The stores to measure, in the order they run (and appear in the output). */
  readonly backends: readonly BenchBackend[];
}

const BACKENDS: Readonly<Record<string, readonly BenchBackend[]>> = {
  sqlite: ['sqlite'],
  etcd: ['etcd'],
  all: ['sqlite', 'etcd'],
};

/** Throws on an unknown option or a bad value, naming it. */
export function parseBenchArgs(args: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      json: { type: 'boolean', default: false },
      concurrency: { type: 'string', default: '64' },
      backend: { type: 'string', default: 'all' },
    },
    strict: true,
    allowPositionals: false,
  });
  const workers = Number(values.concurrency);
  if (!Number.isInteger(workers) || workers < 1 || workers > 1024) throw new Error(`bad --concurrency ${values.concurrency}`);
  const backends = Object.hasOwn(BACKENDS, values.backend) ? BACKENDS[values.backend] : undefined;
  if (backends === undefined) throw new Error(`bad --backend ${values.backend}: want sqlite, etcd or all`);
  return { json: values.json, workers, backends };
}
