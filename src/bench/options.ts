// The bench's command line: --json, --concurrency <n>, --backend sqlite|etcd|all, --phase throughput|hostile|all.
import { parseArgs } from 'node:util';

export type BenchBackend = 'sqlite' | 'etcd';
/** throughput: the ConfigMap figures against their baselines; hostile: issue 9's hostile inputs (embedded store). */
export type BenchPhase = 'throughput' | 'hostile';

export interface BenchOptions {
  readonly json: boolean;
  /** Concurrent requests of every throughput phase. */
  readonly workers: number;
  /** The stores to measure, in the order they run (and appear in the output). */
  readonly backends: readonly BenchBackend[];
  readonly phases: readonly BenchPhase[];
}

const BACKENDS: Readonly<Record<string, readonly BenchBackend[]>> = {
  sqlite: ['sqlite'],
  etcd: ['etcd'],
  all: ['sqlite', 'etcd'],
};

const PHASES: Readonly<Record<string, readonly BenchPhase[]>> = {
  throughput: ['throughput'],
  hostile: ['hostile'],
  all: ['throughput', 'hostile'],
};

/** Throws on an unknown option or a bad value, naming it. */
export function parseBenchArgs(args: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      json: { type: 'boolean', default: false },
      concurrency: { type: 'string', default: '64' },
      backend: { type: 'string', default: 'all' },
      phase: { type: 'string', default: 'all' },
    },
    strict: true,
    allowPositionals: false,
  });
  const workers = Number(values.concurrency);
  if (!Number.isInteger(workers) || workers < 1 || workers > 1024) throw new Error(`bad --concurrency ${values.concurrency}`);
  const backends = Object.hasOwn(BACKENDS, values.backend) ? BACKENDS[values.backend] : undefined;
  if (backends === undefined) throw new Error(`bad --backend ${values.backend}: want sqlite, etcd or all`);
  const phases = Object.hasOwn(PHASES, values.phase) ? PHASES[values.phase] : undefined;
  if (phases === undefined) throw new Error(`bad --phase ${values.phase}: want throughput, hostile or all`);
  return { json: values.json, workers, backends, phases };
}
