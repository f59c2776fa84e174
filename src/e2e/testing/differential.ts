// The differential harness: sends one request to kapi and to the oracle (the reference
// kube-apiserver), normalises what must differ between two servers (uids, resourceVersions,
// timestamps, generated names, continue tokens) and reports every other difference, minus those
// intended-differences.ts lists (intended ones and known defects).
// No Go counterpart: the e2e test harness.
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYAML } from 'yaml';
import { decodeProtobuf, decodeWatchEvent } from '../../apimachinery/runtime/serializer/protobuf/index.ts';
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
const VOLATILE_KEYS = new Set(['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'time', 'continue', 'lastTransitionTime',
  'lastPhaseTransitionTime']);

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

/** Allocated at random from the service ranges: cluster IPs (--service-cluster-ip-range 10.0.0.0/24) and node ports. */
const CLUSTER_IP = /^10\.0\.0\.\d+$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
/** A resourceVersion in a message: `in record (N)`, `current: N`. */
const RV_IN_TEXT = /(ResourceVersion in record \(|, current: )\d+(\)?)/g;
/** The projected service account volume's name ends in five random characters. */
const API_ACCESS = /^kube-api-access-[a-z0-9]{5}$/;
/** ... and that name inside a message (the diff of a pod update that drops the volume). */
const API_ACCESS_IN_TEXT = /\bkube-api-access-[a-z0-9]{5}\b/g;

/**
 * A Table's Age cells (and an Event's Last Seen and First Seen), computed from a time at the
 * moment each server answers; a Created At cell (ClusterRoles, Roles), the creation time, which
 * each server sets in its own second.
 */
function normaliseTable(out: Record<string, unknown>): Record<string, unknown> {
  const columns = out['columnDefinitions'];
  const rows = out['rows'];
  if (columns === null) return normaliseHeadlessTable(out);
  if (!Array.isArray(columns) || !Array.isArray(rows)) return out;
  const column = (name: string): number[] => columns.flatMap((c: unknown, i) => (isRecord(c) && c['name'] === name ? [i] : []));
  const ages = ['Age', 'Last Seen', 'First Seen', 'Created At'].flatMap(column);
  // A Service's Cluster-IP cell: any allocated address, as for spec.clusterIP (ServiceCIDRs other
  // cases create may lend theirs).
  const clusterIPs = column('Cluster-IP');
  const cell = (c: unknown, i: number): unknown => {
    if (ages.includes(i)) return '<age>';
    return clusterIPs.includes(i) && typeof c === 'string' && IPV4.test(c) ? '<cluster-ip>' : c;
  };
  const fix = (row: unknown): unknown => {
    if (!isRecord(row) || !Array.isArray(row['cells'])) return row;
    return { ...row, cells: row['cells'].map(cell) };
  };
  return { ...out, rows: rows.map(fix) };
}

/** A watch's Table events after the first have no columns: an age-like cell ("5s", "2m3s") is taken for the Age column. */
function normaliseHeadlessTable(out: Record<string, unknown>): Record<string, unknown> {
  const rows = out['rows'];
  if (!Array.isArray(rows)) return out;
  const fix = (row: unknown): unknown => {
    if (!isRecord(row) || !Array.isArray(row['cells'])) return row;
    const ageLike = (c: unknown): boolean => typeof c === 'string' && (/^(\d+[smhdy])+$/.test(c) || /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(c));
    return { ...row, cells: row['cells'].map((c: unknown) => (ageLike(c) ? '<age>' : c)) };
  };
  return { ...out, rows: rows.map(fix) };
}

/** Replaces what two correct servers cannot agree on with placeholders that keep its shape. */
export function normalise(v: unknown, key = ''): unknown {
  if (typeof v === 'string') {
    if (VOLATILE_KEYS.has(key)) return v === '' ? '' : `<${key}>`;
    // Any allocated service IP: ServiceCIDRs other cases create may lend theirs (kube allocates from them).
    if (CLUSTER_IP.test(v) || (key === 'clusterIP' && IPV4.test(v))) return '<cluster-ip>';
    if (API_ACCESS.test(v)) return 'kube-api-access-<suffix>';
    // resourceVersions quoted in messages (preconditions, a too-large resourceVersion).
    return v.replace(UUID, '<uuid>').replace(RV_IN_TEXT, '$1<resourceVersion>$2').replace(API_ACCESS_IN_TEXT, 'kube-api-access-<suffix>');
  }
  if (typeof v === 'number' && key === 'nodePort') return '<nodePort>';
  if (Array.isArray(v)) return v.map((x) => normalise(x, key === 'clusterIPs' ? 'clusterIP' : ''));
  if (!isRecord(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = normalise(x, k);
  if (out['kind'] === 'Status') return sortCauses(out);
  if (out['kind'] === 'Table') return normaliseTable(out);
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
  return { status: r.status, headers, body: observeBody(r) };
}

/** Protobuf watch frames: a 4-byte length, then a WatchEvent. */
function protobufFrames(buf: Buffer): unknown[] {
  const events: unknown[] = [];
  for (let pos = 0; pos + 4 <= buf.length;) {
    const len = buf.readUInt32BE(pos);
    // The event's object (a RawExtension holding `k8s\0` + Unknown) decodes to its JSON form.
    events.push(decodeWatchEvent(buf.subarray(pos + 4, pos + 4 + len)));
    pos += 4 + len;
  }
  return events;
}

/**
 * The body as data: JSON, YAML, a JSON watch stream (one event a line), protobuf (decoded to its
 * JSON form: the comparison is of what a client reads, not of the bytes) and protobuf watch
 * streams, normalised; the text when it is none of those.
 */
function observeBody(r: RawResponse): unknown {
  const type = header(r, 'content-type') ?? '';
  try {
    if (type.includes('stream=watch') && type.includes('protobuf')) return normalise(protobufFrames(r.body));
    if (type.includes('protobuf')) {
      const { obj } = decodeProtobuf(r.body);
      return normalise(obj);
    }
    if (/yaml/.test(type)) return normalise(parseYAML(r.text) as unknown);
    try {
      return normalise(JSON.parse(r.text) as unknown);
    } catch (err) {
      const lines = r.text.split('\n').filter((l) => l !== '');
      if (lines.length < 2) throw err;
      return normalise(lines.map((l) => JSON.parse(l) as unknown));
    }
  } catch {
    // Neither (an empty body, plain text): compared as text.
    return r.text;
  }
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

/**
 * The order of the keys both objects have, where it differs: kube writes a struct's fields in Go
 * declaration order and a map's keys sorted, and clients that read JSON as a stream (or print it)
 * see that order. Reported at `<where>.<key order>`.
 */
function diffKeyOrder(id: string, where: string, a: Record<string, unknown>, b: Record<string, unknown>, out: Difference[]): void {
  const inA = Object.keys(a).filter((k) => Object.hasOwn(b, k));
  const inB = Object.keys(b).filter((k) => Object.hasOwn(a, k));
  if (inA.some((k, i) => k !== inB[i])) out.push({ id, where: `${where}.<key order>`, kapi: inA, oracle: inB });
}

function diffValues(id: string, where: string, a: unknown, b: unknown, out: Difference[]): void {
  if (isRecord(a) && isRecord(b)) diffKeyOrder(id, where, a, b, out);
  if (isDeepStrictEqual(a, b)) {
    if (isRecord(a) && isRecord(b)) for (const k of Object.keys(a)) diffValues(id, `${where}.${k}`, a[k], b[k], out);
    else if (Array.isArray(a) && Array.isArray(b)) a.forEach((x, i) => diffValues(id, `${where}[${i}]`, x, b[i], out));
    return;
  }
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
  const at = (w: ListedDifference['where']): boolean => (typeof w !== 'string' ? w.test(d.where)
    : w === '*' || d.where === w || d.where.startsWith(`${w}.`) || d.where.startsWith(`${w}[`));
  return list.find((e) => e.cases.test(d.id) && at(e.where));
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
  /** The status codes kapi and the oracle answered. */
  readonly codes: { readonly kapi: number; readonly oracle: number };
}

/** Sorts a case's differences into unexpected, intended and known defects. */
export function classify(c: DiffCase, codes: CaseResult['codes'], all: readonly Difference[], intended: readonly ListedDifference[] = intendedDifferences,
  known: readonly ListedDifference[] = knownDefects): CaseResult {
  const out = { c, codes, unexpected: [] as Difference[], intended: [] as Difference[], known: [] as Difference[] };
  for (const d of all) {
    if (listedFor(d, intended) !== undefined) out.intended.push(d);
    else if (listedFor(d, known) !== undefined) out.known.push(d);
    else out.unexpected.push(d);
  }
  return out;
}

/**
 * Listed differences that no case showed, among those that apply to a case that ran: fixed
 * defects, or entries the corpus no longer reaches (the list is shared by several suites).
 */
export function unusedEntries(results: readonly CaseResult[], list: readonly ListedDifference[]): ListedDifference[] {
  const seen = results.flatMap((r) => [...r.intended, ...r.known]);
  const ids = results.map((r) => caseId(r.c));
  return list.filter((e) => ids.some((id) => e.cases.test(id)) && !seen.some((d) => listedFor(d, [e]) === e));
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

/**
 * The agreement figures: cases, how many agree fully, how many differ only in intended ways,
 * and the defect classes (a listed known defect's reason, or an unexpected difference's place)
 * by the number of cases they spoil, most first.
 */
export function agreementSummary(results: readonly CaseResult[], known: readonly ListedDifference[] = knownDefects): string {
  const clean = results.filter((r) => r.unexpected.length === 0 && r.known.length === 0);
  // Differences listed for every case (the APF headers) do not count here.
  const universal = (d: Difference): boolean => listedFor(d, intendedDifferences)?.cases.source === '.';
  const intendedOnly = clean.filter((r) => r.intended.some((d) => !universal(d))).length;
  const classes = new Map<string, number>();
  for (const r of results) {
    const names = new Set([
      ...r.known.map((d) => `known: ${listedFor(d, known)?.reason.slice(0, 110) ?? d.where}`),
      ...r.unexpected.map((d) => `unexpected: ${d.where.replace(/\[\d+\]/g, '[]')}`),
    ]);
    for (const n of names) classes.set(n, (classes.get(n) ?? 0) + 1);
  }
  return [
    `${results.length} cases, ${clean.length} agree (${intendedOnly} of them only thanks to intended differences other than the APF headers), ` +
      `${results.length - clean.length} differ (known defects, listed with their issue)`,
    ...[...classes.entries()].sort((a, b) => b[1] - a[1]).map(([n, c]) => `  ${String(c).padStart(4)} cases  ${n}`),
  ].join('\n');
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

/** A request that got no answer (the connection reset or closed) is compared as status 0 with the error's code. */
function transportFailure(err: unknown): RawResponse {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : String(err);
  const text = `no answer: ${code}`;
  return { status: 0, headers: {}, text, body: Buffer.from(text), json: () => { throw new Error(text); } };
}

/**
 * Sends the cases in order, each to both servers at once, and compares the answers. Each server
 * keeps its own memory of remembered values (its continue tokens, its resourceVersions).
 */
export async function runCases(cases: readonly DiffCase[], kapi: Send, oracle: Send, userAgent: string): Promise<CaseResult[]> {
  const memories = { kapi: new Map<string, string>(), oracle: new Map<string, string>() };
  const results: CaseResult[] = [];
  for (const c of cases) {
    const [rk, ro] = await Promise.all([
      kapi(requestFor(c, memories.kapi, userAgent)).catch(transportFailure),
      oracle(requestFor(c, memories.oracle, userAgent)).catch(transportFailure),
    ]);
    if (c.remember !== undefined) {
      for (const [r, memory] of [[rk, memories.kapi], [ro, memories.oracle]] as const) {
        let json: unknown;
        try { json = r.json(); } catch { continue; }
        for (const [k, v] of Object.entries(c.remember(json))) memory.set(k, v);
      }
    }
    results.push(classify(c, { kapi: rk.status, oracle: ro.status }, differences(caseId(c), observe(rk), observe(ro))));
  }
  return results;
}
