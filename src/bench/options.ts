// The bench's command line; BENCH_HELP is what --help prints.
// No Go counterpart: the bench.
import { parseArgs } from 'node:util';

export type BenchBackend = 'sqlite' | 'etcd';
/**
 * throughput: the ConfigMap figures against their baselines; watchers: 1,000 watches on one
 * namespace; hostile: issue 9's hostile inputs (embedded store); startup: spawn to /readyz; cel: custom
 * resource creates with and without CRD validation rules, ConfigMap creates matched by an admission
 * policy or not (embedded store); apf: GETs with API priority and fairness against the same without
 * it (embedded store); webhooks: ConfigMap creates with a mutating and a validating admission webhook
 * and without (embedded store); cache: the watch cache's lists at scale, in process; storage: protobuf
 * against JSON storage and each encryption provider against identity, in process.
 */
export type BenchPhase = 'startup' | 'throughput' | 'watchers' | 'hostile' | 'cel' | 'apf' | 'webhooks' | 'cache' | 'storage';
/** auto: measure kube-apiserver when the oracle build is cached; off: never; require: fail without it. */
export type KubeMode = 'auto' | 'off' | 'require';

export interface BenchOptions {
  readonly help: boolean;
  readonly json: boolean;
  readonly markdown: boolean;
  /** Concurrent requests of every throughput phase. */
  readonly workers: number;
  /** The stores to measure, in the order they run (and appear in the output). */
  readonly backends: readonly BenchBackend[];
  /** In the order they run. */
  readonly phases: readonly BenchPhase[];
  readonly kube: KubeMode;
  /** Watches of the watchers phase. */
  readonly watchers: number;
  /** Start-ups of each server in the startup phase (the figure is their median). */
  readonly startupRuns: number;
}

export const BENCH_HELP = `Usage: npm run bench -- [options]

Measures kapi over HTTPS against baselines measured in the same run: a bare node:https server (the
embedded store), raw etcd requests (kapi on etcd), and, when the oracle is cached
(scripts/build-oracle.sh --print), kube-apiserver v1.36 on its own etcd.

Options:
  --phase <list>          comma-separated phases, run in this order (default all):
                            startup     spawn to the first /readyz 200: kapi (embedded store) on
                                        an empty data dir, restarted, restarted with 10k
                                        configmaps; kapi + etcd, kube-apiserver + etcd (etcd
                                        start included)
                            throughput  create, get, update, list-1k, list-10k, watch-p99
                            watchers    --watchers watches on one namespace, then creates:
                                        per-event delivery p50/p99 and creates/s
                            hostile     issue 9's hostile inputs (embedded store only)
                            cel         custom resource creates with five CRD validation rules
                                        against the same without rules, and ConfigMap creates a
                                        ValidatingAdmissionPolicy matches against unmatched ones
                                        (embedded store only)
                            apf         GETs through API priority and fairness against a server
                                        started with it off, and through an audit policy of
                                        level None against none (embedded store only)
                            webhooks    ConfigMap creates with one mutating and one validating
                                        webhook against the same without (embedded store only)
                            cache       the watch cache in-process: lists of 10k and 100k from
                                        it and from storage (whole, paged), heap per 10k objects
                            storage     in-process Pod writes and reads: protobuf against JSON,
                                        aescbc, aesgcm, secretbox and KMS v2 against identity
                            all         every phase
  --backend <b>           sqlite, etcd or all (default all): kapi's stores to measure
  --kube-apiserver <m>    auto (default): measure kube-apiserver too when the oracle is cached;
                          off: never; require: fail when it is not cached
  --concurrency <n>       concurrent requests of the throughput phases (default 64)
  --watchers <n>          watches of the watchers phase (default 1000)
  --startup-runs <n>      start-ups of each server; the figure is the median (default 3)
  --json                  print one JSON object instead of the table
  --markdown              print the table as markdown (the README's form)
  --help                  print this help
`;

const BACKENDS: Readonly<Record<string, readonly BenchBackend[]>> = {
  sqlite: ['sqlite'],
  etcd: ['etcd'],
  all: ['sqlite', 'etcd'],
};

const ALL_PHASES: readonly BenchPhase[] = ['startup', 'throughput', 'watchers', 'hostile', 'cel', 'apf', 'webhooks', 'cache', 'storage'];
const KUBE_MODES: readonly KubeMode[] = ['auto', 'off', 'require'];
const isKubeMode = (s: string): s is KubeMode => (KUBE_MODES as readonly string[]).includes(s);

function intOption(name: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`bad --${name} ${raw}`);
  return n;
}

/** The phases of a comma-separated list, in the order they run; 'all' means every phase. */
function parsePhases(raw: string): BenchPhase[] {
  const named = raw.split(',').map((p) => p.trim());
  const unknown = named.find((p) => p !== 'all' && !(ALL_PHASES as readonly string[]).includes(p));
  if (unknown !== undefined || named.length === 0) {
    throw new Error(`bad --phase ${raw}: want a comma-separated list of startup, throughput, watchers, hostile, cel, apf, webhooks, cache, storage, or all`);
  }
  return ALL_PHASES.filter((p) => named.includes('all') || named.includes(p));
}

/** Throws on an unknown option or a bad value, naming it. */
export function parseBenchArgs(args: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      help: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      markdown: { type: 'boolean', default: false },
      concurrency: { type: 'string', default: '64' },
      backend: { type: 'string', default: 'all' },
      phase: { type: 'string', default: 'all' },
      'kube-apiserver': { type: 'string', default: 'auto' },
      watchers: { type: 'string', default: '1000' },
      'startup-runs': { type: 'string', default: '3' },
    },
    strict: true,
    allowPositionals: false,
  });
  const workers = intOption('concurrency', values.concurrency, 1, 1024);
  const backends = Object.hasOwn(BACKENDS, values.backend) ? BACKENDS[values.backend] : undefined;
  if (backends === undefined) throw new Error(`bad --backend ${values.backend}: want sqlite, etcd or all`);
  const kube = values['kube-apiserver'];
  if (!isKubeMode(kube)) throw new Error(`bad --kube-apiserver ${kube}: want auto, off or require`);
  if (values.json && values.markdown) throw new Error('--json and --markdown exclude each other');
  return {
    help: values.help, json: values.json, markdown: values.markdown, workers, backends,
    phases: parsePhases(values.phase), kube,
    watchers: intOption('watchers', values.watchers, 1, 10_000),
    startupRuns: intOption('startup-runs', values['startup-runs'], 1, 50),
  };
}
