// The benchmark's output: a readable table, or one JSON object with --json.
import { roundFigure } from './stats.ts';

import type { HostileClass } from './hostile.ts';

export type BaseFigureName = 'create' | 'get' | 'update' | 'list-1k' | 'list-10k' | 'watch-p99'
  | `hostile-${HostileClass}-stall` | `hostile-${HostileClass}-readyz`;
/** '' for the embedded SQLite store (against bare https), 'etcd-' for a real etcd (against raw etcd). */
export type FigurePrefix = '' | 'etcd-';
export type FigureName = `${FigurePrefix}${BaseFigureName}`;

export interface Figure {
  readonly name: FigureName;
  readonly value: number;
  readonly unit: 'ops/s' | 'ms';
  readonly baseline: number;
  /** value / baseline. */
  readonly ratio: number;
}

/** A figure with rounded numbers; throughputs are better higher, latencies lower. */
export function figure(name: FigureName, unit: Figure['unit'], value: number, baseline: number): Figure {
  return { name, value: roundFigure(value), unit, baseline: roundFigure(baseline), ratio: roundFigure(value / baseline) };
}

export function betterDirection(unit: Figure['unit']): 'higher' | 'lower' {
  return unit === 'ops/s' ? 'higher' : 'lower';
}

export function toJSON(figures: readonly Figure[]): string {
  return JSON.stringify({ figures: figures.map((f) => ({ name: f.name, value: f.value, unit: f.unit, baseline: f.baseline, ratio: f.ratio })) });
}

export function toTable(figures: readonly Figure[], notes: readonly string[]): string {
  const header = ['figure', 'kapi', 'baseline', 'unit', 'ratio', 'better'];
  const rows = figures.map((f) => [f.name, String(f.value), String(f.baseline), f.unit, String(f.ratio),
    betterDirection(f.unit)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 || i === 3 || i === 5 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line), '', ...notes].join('\n');
}
