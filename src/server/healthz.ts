// /healthz, /livez and /readyz with named checks, `?verbose` and `?exclude=`, and one path per
// check (`/readyz/etcd`), in kube-apiserver's text format.
// Counterpart of k8s.io/apiserver/pkg/server/healthz.
import type { ServerResponse } from 'node:http';
import { goQuote } from '../apimachinery/goformat/index.ts';
import { recordHealthcheck } from './metrics-handler.ts';

export interface HealthCheck {
  readonly name: string;
  /** Resolves when healthy; rejects (or resolves a message) when not. */
  check(): Promise<void> | void;
}

function send(res: ServerResponse, code: number, body: string): void {
  res.statusCode = code;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, private');
  res.end(body);
}

/** Serves `/<kind>` and `/<kind>/<check>`; resolves false when the path is not a health path. */
export async function serveHealth(kind: 'healthz' | 'livez' | 'readyz', checks: readonly HealthCheck[], path: string,
  query: URLSearchParams, res: ServerResponse): Promise<boolean> {
  const base = `/${kind}`;
  if (path !== base && path !== `${base}/` && !path.startsWith(`${base}/`)) return false;
  const sub = path.slice(base.length + 1);
  // `/healthz/` is no path of kube's: only the endpoint and one path per check are.
  if (sub !== '' || path !== base) {
    const c = checks.find((x) => x.name === sub);
    if (c === undefined) { send(res, 404, '404 page not found\n'); return true; }
    try { await c.check(); send(res, 200, 'ok'); } catch (err) {
      send(res, 500, `internal server error: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    return true;
  }
  const excluded = new Set(query.getAll('exclude'));
  const lines: string[] = [];
  let failed = false;
  for (const c of checks) {
    if (excluded.delete(c.name)) { lines.push(`[+]${c.name} excluded: ok`); continue; }
    try {
      await c.check();
      lines.push(`[+]${c.name} ok`);
      recordHealthcheck(c.name, kind, true);
    } catch {
      failed = true;
      lines.push(`[-]${c.name} failed: reason withheld`);
      recordHealthcheck(c.name, kind, false);
    }
  }
  if (excluded.size > 0) {
    const names = [...excluded].sort().map(goQuote).join(',');
    lines.push(`warn: some health checks cannot be excluded: no matches for ${names}`);
  }
  const verbose = query.has('verbose');
  if (failed) {
    send(res, 500, `${lines.join('\n')}\n${kind} check failed\n`);
  } else if (verbose) {
    send(res, 200, `${lines.join('\n')}\n${kind} check passed\n`);
  } else {
    send(res, 200, 'ok');
  }
  return true;
}
