// kube's HTTP health probe of the components componentstatuses reports (controller-manager and
// scheduler on their default secure ports): GET without verifying the certificate; a 2xx answer
// is healthy with the body as message, anything else unhealthy with a message in Go's words.
// Counterpart of pkg/probe/http.
import { request as httpsRequest } from 'node:https';
import type { HealthProbe } from './componentstatus.ts';

/** kube's probeTimeOut. */
const PROBE_TIMEOUT_MS = 20_000;
/** kube reads at most 10 KiB of the body. */
const MAX_BODY = 10 * 1024;

/** Go's net/http text for a failed GET: `Get "<url>": <cause>`. */
function goError(url: string, err: NodeJS.ErrnoException): string {
  const u = new URL(url);
  const addr = `${u.hostname}:${u.port}`;
  switch (err.code) {
    case 'ECONNREFUSED': return `Get "${url}": dial tcp ${addr}: connect: connection refused`;
    case 'ECONNRESET': return `Get "${url}": read tcp ${addr}: read: connection reset by peer`;
    case 'ETIMEDOUT': return `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
    default: return `Get "${url}": ${err.message}`;
  }
}

/** Probes `url` (https) as kube's componentstatus HttpServer does. */
export function httpsHealthProbe(url: string): HealthProbe {
  return () => new Promise((resolve) => {
    const req = httpsRequest(url, { method: 'GET', rejectUnauthorized: false, agent: false, timeout: PROBE_TIMEOUT_MS }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (s: string) => { if (body.length < MAX_BODY) body = (body + s).slice(0, MAX_BODY); });
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ unhealthy: goError(url, err) }));
      res.on('end', () => {
        const code = res.statusCode ?? 0;
        if (code >= 200 && code < 300) resolve(body);
        else if (code >= 300 && code < 400) resolve({ unknown: `Probe terminated redirects, Response body: ${body}` });
        // kube keeps the body out of the message of a failure.
        else resolve({ unhealthy: `HTTP probe failed with statuscode: ${code}` });
      });
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ unhealthy: goError(url, err) }));
    req.end();
  });
}
