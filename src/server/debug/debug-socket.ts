// --debug-socket-path: the debug handlers (profiles, /debug/flags/v) on a unix-domain socket,
// without authentication or authorization (whoever can open the file may use them), whatever
// --profiling says. A file already at the path is replaced, as kube removes it first.
// Counterpart of k8s.io/apiserver/pkg/server/routes/debugsocket.go.
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { DebugHandler } from './profiling.ts';

export interface DebugSocket { close(): Promise<void> }

export async function startDebugSocket(path: string, handlers: readonly [string, DebugHandler][]): Promise<DebugSocket> {
  const exact = new Map(handlers);
  const prefixes = handlers.filter(([p]) => p.endsWith('/'));
  const server: Server = createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://debug').pathname;
    const h = exact.get(p) ?? prefixes.find(([x]) => p.startsWith(x))?.[1];
    if (h === undefined) {
      // Go's NotFound.
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end('404 page not found\n');
      return;
    }
    Promise.resolve(h(req, res)).catch(() => { if (!res.headersSent) res.writeHead(500); res.end(); });
  });
  await rm(path, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => { server.off('error', reject); resolve(); });
  });
  return {
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}
