// The benchmark's output: a readable table, a README (markdown) table, or one JSON object with --json.
// No Go counterpart: the bench.
import { roundFigure } from './stats.ts';

/** The hostile request classes the bench sends (bench/hostile.ts). */
export const HOSTILE_CLASSES = [
  'body-3mib', 'json-patch-10k-ops', 'copy-limit', 'deep-create', 'deep-merge-patch', 'keys-100k', 'managedfields-400',
  'headers-1mb', 'selector-10k', 'list-10k',
] as const;
export type HostileClass = typeof HOSTILE_CLASSES[number];

export type BaseFigureName = 'create' | 'get' | 'update' | 'list-1k' | 'list-10k' | 'watch-p99'
  | 'watchers-p50' | 'watchers-p99' | 'watchers-creates' | 'startup' | 'cr-create' | 'cr-create-5-rules' | 'get-no-apf' | 'get-apf' | 'get-audit-none'
  | 'cm-create-no-webhook' | 'cm-create-2-webhooks'
  | 'cache-heap-10k' | 'cache-list-10k' | 'cache-list-10k-paged' | 'cache-list-100k' | 'cache-list-100k-paged'
  | 'policy-create-unmatched' | 'policy-create-3-validations'
  | 'startup-restart' | 'startup-10k'
  | 'storage-protobuf' | 'storage-aescbc' | 'storage-aesgcm' | 'storage-secretbox' | 'storage-kms-v2'
  | `hostile-${HostileClass}-stall` | `hostile-${HostileClass}-readyz`;
/** '' for the embedded SQLite store (against bare https), 'etcd-' for a real etcd (against raw etcd). */
export type FigurePrefix = '' | 'etcd-';
export type FigureName = `${FigurePrefix}${BaseFigureName}`;

export interface Figure {
  readonly name: FigureName;
  readonly value: number;
  readonly unit: 'ops/s' | 'ms' | 'MiB';
  /** The bare baseline (bare https or raw etcd); absent where there is none (watchers, start-up). */
  readonly baseline?: number;
  /** value / baseline. */
  readonly ratio?: number;
  /** The same figure of kube-apiserver on etcd, measured in the same run; absent without the oracle. */
  readonly kube?: number;
  /** value / kube. */
  readonly kubeRatio?: number;
}

/** A figure with rounded numbers; throughputs are better higher, latencies lower. */
export function figure(name: FigureName, unit: Figure['unit'], value: number, baseline: number | undefined,
  kube?: number): Figure {
  return {
    name, value: roundFigure(value), unit,
    ...(baseline === undefined ? {} : { baseline: roundFigure(baseline), ratio: roundFigure(value / baseline) }),
    ...(kube === undefined ? {} : { kube: roundFigure(kube), kubeRatio: roundFigure(value / kube) }),
  };
}

function betterDirection(unit: Figure['unit']): 'higher' | 'lower' {
  return unit === 'ops/s' ? 'higher' : 'lower';
}

export function toJSON(figures: readonly Figure[]): string {
  return JSON.stringify({
    figures: figures.map((f) => ({
      name: f.name, value: f.value, unit: f.unit,
      ...(f.baseline === undefined ? {} : { baseline: f.baseline, ratio: f.ratio }),
      ...(f.kube === undefined ? {} : { kubeApiserver: f.kube, kubeRatio: f.kubeRatio }),
    })),
  });
}

const cell = (v: number | undefined): string => (v === undefined ? '-' : String(v));
const anyKube = (figures: readonly Figure[]): boolean => figures.some((f) => f.kube !== undefined);

/** The columns; the kube-apiserver ones only when some figure has them. */
function rows(figures: readonly Figure[]): { header: string[]; rows: string[][] } {
  const kube = anyKube(figures);
  const header = ['figure', 'kapi', 'baseline', 'ratio', ...(kube ? ['kube-apiserver', 'kapi/kube'] : []), 'unit', 'better'];
  return {
    header,
    rows: figures.map((f) => [f.name, String(f.value), cell(f.baseline), cell(f.ratio),
      ...(kube ? [cell(f.kube), cell(f.kubeRatio)] : []), f.unit, betterDirection(f.unit)]),
  };
}

export function toTable(figures: readonly Figure[], notes: readonly string[]): string {
  const t = rows(figures);
  const widths = t.header.map((h, i) => Math.max(h.length, ...t.rows.map((r) => r[i]!.length)));
  const textColumn = (i: number): boolean => i === 0 || i >= t.header.length - 2;
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (textColumn(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(t.header), widths.map((w) => '-'.repeat(w)).join('  '), ...t.rows.map(line), '', ...notes].join('\n');
}

/** The README's form: `| figure (unit) | kapi | baseline | ratio | kube-apiserver | kapi/kube |`. */
export function toMarkdown(figures: readonly Figure[]): string {
  const kube = anyKube(figures);
  const header = ['figure', 'kapi', 'baseline', 'ratio', ...(kube ? ['kube-apiserver', 'kapi/kube'] : [])];
  const body = figures.map((f) => [`${f.name} (${f.unit})`, String(f.value), cell(f.baseline), cell(f.ratio),
    ...(kube ? [cell(f.kube), cell(f.kubeRatio)] : [])]);
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), `|---|${header.slice(1).map(() => '---:').join('|')}|`, ...body.map(line)].join('\n');
}
