// A small parser of the Prometheus text exposition format (0.0.4), for tests that read /metrics:
// families with their HELP, TYPE and samples (name, labels, value). prom-client has no parser.
// No Go counterpart: test support (the format of github.com/prometheus/common/expfmt).

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  help: string;
  type: string;
  readonly samples: Sample[];
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const re = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;
  let i = 0;
  while (i < text.length) {
    re.lastIndex = i;
    const m = re.exec(text);
    if (m === null) throw new Error(`bad labels in ${JSON.stringify(line)}`);
    labels[m[1] ?? ''] = (m[2] ?? '').replace(/\\(.)/g, (_s, c: string) => (c === 'n' ? '\n' : c));
    i = re.lastIndex;
  }
  return labels;
}

/** As Prometheus reads a sample (Go's ParseFloat): NaN and Inf in any case (prom-client writes "Nan"). */
function parseValue(v: string, line: string): number {
  const lower = v.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Infinity;
  if (lower === '-inf') return -Infinity;
  if (lower === 'nan') return NaN;
  const n = Number(v);
  if (v === '' || Number.isNaN(n)) throw new Error(`bad value in ${JSON.stringify(line)}`);
  return n;
}

/** The family a sample belongs to: its own name, or the histogram/summary it is a _bucket/_sum/_count of. */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  const own = families.get(name);
  if (own !== undefined) return own;
  const m = /^(.*)_(bucket|sum|count)$/.exec(name);
  return m === null ? undefined : families.get(m[1] ?? '');
}

/** Parses an exposition; throws on a malformed line. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string): Family => {
    let f = families.get(name);
    if (f === undefined) families.set(name, f = { name, help: '', type: 'untyped', samples: [] });
    return f;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = /^#\s+(HELP|TYPE)\s+(\S+)\s?(.*)$/.exec(line);
    if (meta !== null) {
      const f = family(meta[2] ?? '');
      if (meta[1] === 'HELP') f.help = meta[3] ?? ''; else f.type = meta[3] ?? '';
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$/.exec(line);
    if (m === null) throw new Error(`bad sample line ${JSON.stringify(line)}`);
    const name = m[1] ?? '';
    const sample = { name, labels: parseLabels(m[2] ?? '', line), value: parseValue(m[3] ?? '', line) };
    (familyOf(name, families) ?? family(name)).samples.push(sample);
  }
  return families;
}

/** The value of the sample `name` whose labels include `labels`, or undefined. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Readonly<Record<string, string>> = {}): number | undefined {
  const f = familyOf(name, families);
  const s = f?.samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
  return s?.value;
}
