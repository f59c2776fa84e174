// The differential harness: sends one request to kapi and to the oracle (the reference
// kube-apiserver), normalises what must differ between two servers (uids, resourceVersions,
// timestamps, generated names, continue tokens) and reports every other difference, minus those
// intended-differences.ts lists (intended ones and known defects).
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYAML } from 'yaml';
import { intendedDifferences, knownDefects, type ListedDifference } from './intended-differences.ts';
import type { RawRequest, RawResponse } from './https-client.ts';

/** One request of the corpus. Paths and bodies may name values an earlier case remembered: `{key}`. */
export interface DiffCase {
  /** The resource, for the agreement table (e.g. configmaps, crontabs). */
  readonly resource: string;
  /** The verb, for the agreement table (create, get, list, update, patch:merge, apply, delete, ...). */
  readonly verb: string;
  /** What the case checks; `${resource} ${verb} ${name}` identifies it (intended differences match it). */
  readonly name: string;
  readonly method: string;
  readonly path: string;
  /** Bytes are sent as they are (no placeholders). */
  readonly body?: string | Buffer;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Remembers values of the answer, per server, for later cases' `{key}` placeholders. */
  readonly remember?: (json: unknown) => Readonly<Record<string, string>>;
}

const caseId = (c: Pick<DiffCase, 'resource' | 'verb' | 'name'>): string => `${c.resource} ${c.verb} ${c.name}`;

/** The headers clients read. Values that differ by design (ids) are compared as present or absent. */
const COMPARED_HEADERS = ['content-type', 'cache-control', 'warning'];
const PRESENCE_HEADERS = ['audit-id', 'x-kubernetes-pf-flowschema-uid', 'x-kubernetes-pf-prioritylevel-uid'];

/** What a server answered, reduced to what the comparison looks at. */
export interface Observation {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The normalised JSON body, or the raw text when the body is not JSON. */
  readonly body: unknown;
}

export interface Difference {
  readonly id: string;
  /** `status`, `header:<name>` or a body path such as `body.metadata.labels`. */
  readonly where: string;
  readonly kapi: unknown;
  readonly oracle: unknown;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Keys whose values are per-server by nature; their presence and type are still compared. */
const VOLATILE_KEYS = new Set(['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'time', 'continue', 'lastTransitionTime']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `field: message`, as kube's aggregate of field errors prints each cause. */
const causeText = (c: unknown): string | undefined => {
  if (!isRecord(c) || typeof c['message'] !== 'string') return undefined;
  return typeof c['field'] === 'string' && c['field'] !== '' ? `${c['field']}: ${c['message']}` : c['message'];
};

/**
 * kube validates map entries (ConfigMap data, a CR's properties) in Go's random map order, so the
 * order of an Invalid Status's causes, and of the list in its message, is not part of the
 * contract: both are sorted.
 */
function sortCauses(status: Record<string, unknown>): Record<string, unknown> {
  const details = status['details'];
  if (!isRecord(details) || !Array.isArray(details['causes']) || details['causes'].length < 2) return status;
  const causes: unknown[] = details['causes'];
  const texts = causes.map(causeText);
  const sorted = [...causes].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  let message = status['message'];
  const list = `[${texts.join(', ')}]`;
  if (typeof message === 'string' && texts.every((t) => t !== undefined) && message.endsWith(list)) {
    message = `${message.slice(0, -list.length)}[${[...texts].sort().join(', ')}]`;
  }
  return { ...status, message, details: { ...details, causes: sorted } };
}

/** Replaces what two correct servers cannot agree on with placeholders that keep its shape. */
export function normalise(v: unknown, key = ''): unknown {
  if (typeof v === 'string') {
    if (VOLATILE_KEYS.has(key)) return v === '' ? '' : `<${key}>`;
    return v.replace(UUID, '<uuid>');
  }
  if (Array.isArray(v)) return v.map((x) => normalise(x));
  if (!isRecord(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = normalise(x, k);
  if (out['kind'] === 'Status') return sortCauses(out);
  const meta = out['metadata'];
  // generateName's random suffix: keep the prefix, drop the five random characters.
  if (isRecord(meta) && typeof meta['generateName'] === 'string' && typeof meta['name'] === 'string' &&
      meta['name'].startsWith(meta['generateName'])) {
    out['metadata'] = { ...meta, name: `${meta['generateName']}<suffix>` };
  }
  return out;
}

function header(r: RawResponse, name: string): string | undefined {
  const v = r.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** The parts of an answer the comparison looks at, normalised. */
export function observe(r: RawResponse): Observation {
  const headers: Record<string, string> = {};
  for (const h of COMPARED_HEADERS) {
    const v = header(r, h);
    if (v !== undefined) headers[h] = h === 'warning' ? v.replace(UUID, '<uuid>') : v;
  }
  for (const h of PRESENCE_HEADERS) if (header(r, h) !== undefined) headers[h] = '<present>';
  let body: unknown = r.text;
  try {
    // YAML answers are compared as the data they carry (normalised like JSON).
    body = normalise(/yaml/.test(header(r, 'content-type') ?? '') ? parseYAML(r.text) as unknown : JSON.parse(r.text) as unknown);
  } catch {
    // Neither (an empty body, plain text, protobuf): compared as text.
  }
  return { status: r.status, headers, body };
}

/** Every place where the two observations differ: leaves of the body, headers and the status code. */
export function differences(id: string, kapi: Observation, oracle: Observation): Difference[] {
  const out: Difference[] = [];
  if (kapi.status !== oracle.status) out.push({ id, where: 'status', kapi: kapi.status, oracle: oracle.status });
  const names = new Set([...Object.keys(kapi.headers), ...Object.keys(oracle.headers)]);
  for (const h of [...names].sort()) {
    if (kapi.headers[h] !== oracle.headers[h]) out.push({ id, where: `header:${h}`, kapi: kapi.headers[h], oracle: oracle.headers[h] });
  }
  diffValues(id, 'body', kapi.body, oracle.body, out);
  return out;
}

function diffValues(id: string, where: string, a: unknown, b: unknown, out: Difference[]): void {
  if (isDeepStrictEqual(a, b)) return;
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of [...keys].sort()) diffValues(id, `${where}.${k}`, a[k], b[k], out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diffValues(id, `${where}[${i}]`, x, b[i], out));
    return;
  }
  out.push({ id, where, kapi: a, oracle: b });
}

/** The listed difference that explains `d`, if any. */
export function listedFor(d: Difference, list: readonly ListedDifference[]): ListedDifference | undefined {
  return list.find((e) => e.cases.test(d.id) && (d.where === e.where || d.where.startsWith(`${e.where}.`) || d.where.startsWith(`${e.where}[`)));
}

/** Fills `{key}` placeholders from what this server's earlier answers remembered. */
export function fill(s: string, memory: ReadonlyMap<string, string>): string {
  return s.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (whole, key: string) => {
    const v = memory.get(key);
    return v === undefined ? whole : encodeURIComponent(v);
  });
}

/** The request for one server, with its own remembered values. */
function requestFor(c: DiffCase, memory: ReadonlyMap<string, string>, userAgent: string): RawRequest {
  return {
    method: c.method, path: fill(c.path, memory),
    ...(c.body !== undefined ? { body: typeof c.body === 'string' ? fill(c.body, memory) : c.body } : {}),
    ...(c.contentType !== undefined ? { contentType: c.contentType } : {}),
    // The same User-Agent on both servers: it names the default field manager.
    headers: { 'User-Agent': userAgent, ...c.headers },
  };
}

export interface CaseResult {
  readonly c: DiffCase;
  /** Differences in neither list: defects the suite fails on. */
  readonly unexpected: readonly Difference[];
  /** Differences kapi intends (intendedDifferences). */
  readonly intended: readonly Difference[];
  /** Differences that are known defects (knownDefects). */
  readonly known: readonly Difference[];
}

/** Sorts a case's differences into unexpected, intended and known defects. */
function classify(c: DiffCase, all: readonly Difference[], intended: readonly ListedDifference[] = intendedDifferences,
  known: readonly ListedDifference[] = knownDefects): CaseResult {
  const out = { c, unexpected: [] as Difference[], intended: [] as Difference[], known: [] as Difference[] };
  for (const d of all) {
    if (listedFor(d, intended) !== undefined) out.intended.push(d);
    else if (listedFor(d, known) !== undefined) out.known.push(d);
    else out.unexpected.push(d);
  }
  return out;
}

/** Listed differences that no case showed: fixed defects, or entries the corpus no longer reaches. */
export function unusedEntries(results: readonly CaseResult[], list: readonly ListedDifference[]): ListedDifference[] {
  const seen = results.flatMap((r) => [...r.intended, ...r.known]);
  return list.filter((e) => !seen.some((d) => listedFor(d, [e]) === e));
}

/** A per-resource, per-verb table: `agree/total` cases without unexpected differences. */
export function agreementTable(results: readonly CaseResult[]): string {
  const verbs = [...new Set(results.map((r) => r.c.verb))];
  const resources = [...new Set(results.map((r) => r.c.resource))];
  const cell = (resource: string, verb: string): string => {
    const rs = results.filter((r) => r.c.resource === resource && r.c.verb === verb);
    if (rs.length === 0) return '-';
    const agree = rs.filter((r) => r.unexpected.length === 0 && r.known.length === 0).length;
    const marks = (rs.some((r) => r.intended.length > 0) ? '*' : '') + (rs.some((r) => r.known.length > 0) ? '!' : '');
    return `${agree}/${rs.length}${marks}`;
  };
  const rows = [['resource', ...verbs], ...resources.map((res) => [res, ...verbs.map((v) => cell(res, v))])];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  const line = (r: readonly string[]): string => r.map((s, i) => s.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [...rows.map(line),
    '(cases without defects/cases; * = with differences listed as intended, ! = with known defects)'].join('\n');
}

/** A readable account of differences: the same difference in many cases is shown once, with its cases. */
export function describeDifferences(ds: readonly Difference[]): string {
  const show = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v));
  const groups = new Map<string, { where: string; kapi: unknown; oracle: unknown; ids: string[] }>();
  for (const d of ds) {
    const k = JSON.stringify([d.where, d.kapi, d.oracle]);
    const g = groups.get(k) ?? { where: d.where, kapi: d.kapi, oracle: d.oracle, ids: [] };
    g.ids.push(d.id);
    groups.set(k, g);
  }
  return [...groups.values()].map((g) => {
    const cases = g.ids.length > 3 ? `${g.ids.slice(0, 3).join('; ')} and ${g.ids.length - 3} more` : g.ids.join('; ');
    return `${g.where} (${cases})\n    kapi:   ${show(g.kapi)}\n    oracle: ${show(g.oracle)}`;
  }).join('\n');
}

export type Send = (req: RawRequest) => Promise<RawResponse>;

/**
 * Sends the cases in order, each to both servers at once, and compares the answers. Each server
 * keeps its own memory of remembered values (its continue tokens, its resourceVersions).
 */
export async function runCases(cases: readonly DiffCase[], kapi: Send, oracle: Send, userAgent: string): Promise<CaseResult[]> {
  const memories = { kapi: new Map<string, string>(), oracle: new Map<string, string>() };
  const results: CaseResult[] = [];
  for (const c of cases) {
    const [rk, ro] = await Promise.all([kapi(requestFor(c, memories.kapi, userAgent)), oracle(requestFor(c, memories.oracle, userAgent))]);
    if (c.remember !== undefined) {
      for (const [r, memory] of [[rk, memories.kapi], [ro, memories.oracle]] as const) {
        let json: unknown;
        try { json = r.json(); } catch { continue; }
        for (const [k, v] of Object.entries(c.remember(json))) memory.set(k, v);
      }
    }
    results.push(classify(c, differences(caseId(c), observe(rk), observe(ro))));
  }
  return results;
}
