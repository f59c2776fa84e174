// With -v 3 or more (also when set later through /debug/flags/v), one line per request as kube-apiserver's httplog writes it at that level:
// klog's header, then "HTTP" with the verb, URI, latency, user agent, audit ID, source address
// and response code, once the response is finished.
// Counterpart of k8s.io/apiserver/pkg/server/httplog.
import type { Filter } from './types.ts';

/** time.Duration.String for a latency: 850ns, 12.5µs, 3.2ms, 1.05s. */
function goLatency(ns: number): string {
  const trim = (n: number): string => String(+n.toFixed(6));
  if (ns < 1e3) return `${Math.round(ns)}ns`;
  if (ns < 1e6) return `${trim(ns / 1e3)}µs`;
  if (ns < 1e9) return `${trim(ns / 1e6)}ms`;
  return `${trim(ns / 1e9)}s`;
}

/** klog's line header: severity, MMDD hh:mm:ss.uuuuuu, pid, file:line. */
function klogHeader(now: Date, file: string): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `I${p(now.getMonth() + 1)}${p(now.getDate())} ${p(now.getHours())}:${p(now.getMinutes())}:${p(now.getSeconds())}.` +
    `${p(now.getMilliseconds() * 1000, 6)} ${String(process.pid).padStart(7)} ${file}]`;
}

/** The verb httplog names: LIST and WATCH for those resource requests, else the HTTP method. */
function logVerb(method: string, verb: string | undefined): string {
  if (verb === 'list') return 'LIST';
  if (verb === 'watch') return 'WATCH';
  return method;
}

/**
 * Logs each request through `log` once its response is finished (or the client left), while
 * `enabled` says so (-v 3 or more; /debug/flags/v changes it at run time).
 */
export const withHTTPLog = (log: (line: string) => void, enabled: () => boolean = () => true): Filter => (next) => async (req, res, state) => {
  if (!enabled()) return next(req, res, state);
  const start = process.hrtime.bigint();
  // Read now: once the client has gone, the socket no longer knows its peer.
  const srcIP = `${req.socket.remoteAddress ?? ''}:${req.socket.remotePort ?? ''}`;
  let logged = false;
  const write = (): void => {
    if (logged) return;
    logged = true;
    const latency = goLatency(Number(process.hrtime.bigint() - start));
    const fields = [
      `verb=${JSON.stringify(logVerb(req.method ?? 'GET', state.info?.isResourceRequest === true ? state.info.verb : undefined))}`,
      `URI=${JSON.stringify(req.url ?? '')}`,
      `latency=${JSON.stringify(latency)}`,
      `userAgent=${JSON.stringify(req.headers['user-agent'] ?? '')}`,
      `audit-ID=${JSON.stringify(String(res.getHeader('Audit-Id') ?? ''))}`,
      `srcIP=${JSON.stringify(srcIP)}`,
      `resp=${res.statusCode}`,
    ];
    log(`${klogHeader(new Date(), 'httplog.go:134')} "HTTP" ${fields.join(' ')}`);
  };
  res.once('finish', write);
  res.once('close', write);
  await next(req, res, state);
};
