// --profiling (default true): /debug/pprof/* and /debug/flags/v as kube serves them, with Node's
// profiles in Go's format: /debug/pprof/profile?seconds=N is a V8 CPU profile, /debug/pprof/heap
// V8's sampling heap profile (sampling starts with the first request, so the first answer is
// nearly empty), both pprof (gzipped profile.proto). Go's other profiles (goroutine, block,
// mutex, threadcreate, allocs, cmdline) and the execution trace have no Node counterpart: they
// get Go's answer for a profile that does not exist, 404 "Unknown profile". /debug/flags/v sets
// the verbosity (-v) at run time. All are non-resource URLs, authorized as kube authorizes them,
// and unlisted in `GET /`. --debug-socket-path serves the same handlers without authentication.
// Counterpart of k8s.io/apiserver/pkg/server/routes/{profiling,flags}.go and Go's net/http/pprof.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Session } from 'node:inspector';
import { readBody } from '../../endpoints/request/body.ts';
import { cpuProfileToPprof, heapProfileToPprof, type V8CpuProfile, type V8HeapProfile } from './pprof.ts';

export type DebugHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** The -v level, readable by the request log and settable through /debug/flags/v. */
export interface Verbosity { get(): number; set(v: number): void }

export function newVerbosity(initial: number): Verbosity {
  let v = initial;
  return { get: () => v, set: (n) => { v = n; } };
}

/** V8's CPU sampling interval (its default), the pprof period. */
const CPU_INTERVAL_MICROS = 1000;
/** V8's default heap sampling interval; Go's MemProfileRate is 512 KiB. */
const HEAP_INTERVAL_BYTES = 512 * 1024;

let session: Session | undefined;
let heapSampling = false;
let cpuBusy = false;

function post<T>(method: string, params?: object): Promise<T> {
  session ??= (() => { const s = new Session(); s.connect(); return s; })();
  const s = session;
  return new Promise((resolve, reject) => {
    s.post(method, params ?? {}, (err, result) => { if (err !== null) reject(err); else resolve(result as T); });
  });
}

/** Go's pprof error answer: plain text and X-Go-Pprof, no Content-Disposition. */
function serveError(res: ServerResponse, code: number, text: string): void {
  res.removeHeader('Content-Disposition');
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Go-Pprof': '1', 'Content-Length': Buffer.byteLength(`${text}\n`) });
  res.end(`${text}\n`);
}

function sendProfile(res: ServerResponse, name: string, body: Buffer): void {
  res.writeHead(200, {
    'Content-Type': 'application/octet-stream', 'Content-Disposition': `attachment; filename="${name}"`, 'Content-Length': body.length,
  });
  res.end(body);
}

/** Go's strconv.ParseInt of the parameter, with pprof's fallback to 30 s for a missing, bad or non-positive value. */
function seconds(req: IncomingMessage): number {
  const raw = new URL(req.url ?? '/', 'https://x').searchParams.get('seconds') ?? '';
  const n = /^[+-]?\d+$/.test(raw) ? Number(raw) : 0;
  return n > 0 ? n : 30;
}

async function cpuProfile(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (cpuBusy) { serveError(res, 500, 'Could not enable CPU profiling: cpu profiling already in use'); return; }
  cpuBusy = true;
  try {
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: CPU_INTERVAL_MICROS });
    await post('Profiler.start');
    // As Go's sleep: the profile ends early when the client goes away.
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, seconds(req) * 1000);
      res.once('close', () => { clearTimeout(t); resolve(); });
    });
    const { profile } = await post<{ profile: V8CpuProfile }>('Profiler.stop');
    if (!res.destroyed && !res.writableEnded) sendProfile(res, 'profile', cpuProfileToPprof(profile, CPU_INTERVAL_MICROS));
  } finally {
    cpuBusy = false;
  }
}

async function heapProfile(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const q = new URL(req.url ?? '/', 'https://x').searchParams;
  if (!heapSampling) {
    await post('HeapProfiler.enable');
    await post('HeapProfiler.startSampling', { samplingInterval: HEAP_INTERVAL_BYTES });
    heapSampling = true;
  }
  // ?gc=1 collects garbage first, as Go's handler does for the heap.
  if (Number(q.get('gc') ?? '0') > 0) await post('HeapProfiler.collectGarbage');
  const { profile } = await post<{ profile: V8HeapProfile }>('HeapProfiler.getSamplingProfile');
  sendProfile(res, 'heap', heapProfileToPprof(profile, HEAP_INTERVAL_BYTES));
}

const PROFILES: Readonly<Record<string, { readonly what: string; readonly serve: DebugHandler }>> = {
  heap: { what: 'A sampling of the objects alive on the V8 heap (sampling starts with the first request).', serve: heapProfile },
  profile: { what: 'CPU profile. You can specify the duration in the seconds GET parameter.', serve: cpuProfile },
};

function index(res: ServerResponse): void {
  const rows = Object.entries(PROFILES).map(([n, p]) => `<li><a href='${n}'>${n}</a>: ${p.what}</li>`).join('\n');
  const body = `<html>\n<head>\n<title>/debug/pprof/</title>\n</head>\n<body>\n/debug/pprof/\n<br>\n` +
    `Profiles of this Node.js process (pprof format):\n<ul>\n${rows}\n</ul>\n</body>\n</html>\n`;
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** /debug/pprof/<name>: Go's Index serves the page for '' and looks the name up otherwise. */
const pprofIndex: DebugHandler = async (req, res) => {
  const name = (new URL(req.url ?? '/', 'https://x').pathname).slice('/debug/pprof/'.length);
  if (name === '') { index(res); return; }
  const p = PROFILES[name];
  if (p === undefined) { serveError(res, 404, 'Unknown profile'); return; }
  await p.serve(req, res);
};

/** http.Redirect's answer for a GET: 302 with a short HTML body. */
const redirectToIndex: DebugHandler = (_req, res) => {
  const body = '<a href="/debug/pprof/">Found</a>.\n\n';
  res.writeHead(302, { Location: '/debug/pprof/', 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
};

const FLAGS_INDEX = '<html>\n<head>\n<title>/debug/flags/</title>\n</head>\n<body>\n/debug/flags/<br>\n<br>\nflags:<br>\n<table>\n' +
  '<tr>v<br>\n</table>\n<br>\nfull flags configurable<br>\n</body>\n</html>\n';

const flagsIndex: DebugHandler = (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(FLAGS_INDEX) });
  res.end(FLAGS_INDEX);
};

function plainText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(`${text}\n`) });
  res.end(`${text}\n`);
}

/** PUT sets -v from the body (klog's Level.Set: strconv.ParseUint, base 10, 32 bits); any other method 406. */
function verbosityHandler(v: Verbosity): DebugHandler {
  return async (req, res) => {
    if (req.method !== 'PUT') { plainText(res, 406, 'unsupported http method'); return; }
    const raw = (await readBody(req)).toString('utf8');
    if (!/^\d+$/.test(raw) || Number(raw) > 0xffffffff) {
      plainText(res, 400, `strconv.ParseUint: parsing ${JSON.stringify(raw)}: ${/^\d+$/.test(raw) ? 'value out of range' : 'invalid syntax'}`);
      return;
    }
    v.set(Number(raw));
    plainText(res, 200, `successfully set klog.logging.verbosity to ${raw}`);
  };
}

/** The debug paths (exact, or prefixes ending in '/'), as the server's non-resource handlers. */
export function debugHandlers(verbosity: Verbosity): [string, DebugHandler][] {
  return [
    ['/debug/pprof', redirectToIndex],
    ['/debug/pprof/', pprofIndex],
    ['/debug/flags', flagsIndex],
    ['/debug/flags/', flagsIndex],
    ['/debug/flags/v', verbosityHandler(verbosity)],
  ];
}
