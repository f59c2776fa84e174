// Child process: the baseline, a bare node:https server doing the least work a server can do for
// each benchmark request (drain the request, answer a prebuilt JSON body of a given size), with
// kapi's own serving certificate. Usage: baseline-server <cert.pem> <key.pem>.
// Prints {"url"} on one line when ready; exits when stdin closes.
//   * /bytes/<n>                      → 200 with a JSON body of n bytes
//   * GET /watch                      → a chunked stream that stays open
//   * POST /poke/<name>/<event>/<n>   → writes a <event>-byte JSON line naming <name> to every open
//                                       stream, then answers n bytes
// No Go counterpart: the bench.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';

const [certPath, keyPath] = process.argv.slice(2);
if (certPath === undefined || keyPath === undefined) {
  console.error('usage: baseline-server <cert.pem> <key.pem>');
  process.exit(2);
}

const bodies = new Map<number, Buffer>();

/** A valid JSON document of exactly n bytes (n >= 2). */
function jsonOfSize(n: number): Buffer {
  let body = bodies.get(n);
  if (body === undefined) {
    const frame = '{"pad":""}';
    body = Buffer.from(n < frame.length ? '{}' : `{"pad":"${'x'.repeat(n - frame.length)}"}`);
    bodies.set(n, body);
  }
  return body;
}

function eventLine(name: string, n: number): string {
  const head = `{"type":"ADDED","object":{"metadata":{"name":${JSON.stringify(name)}}},"pad":"`;
  const tail = '"}\n';
  return head + 'x'.repeat(Math.max(0, n - head.length - tail.length)) + tail;
}

const streams = new Set<ServerResponse>();

function answer(res: ServerResponse, n: number): void {
  const body = jsonOfSize(n);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const parts = (req.url ?? '/').split('?')[0]!.split('/');
  if (parts[1] === 'watch') {
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    res.flushHeaders();
    streams.add(res);
    res.on('close', () => streams.delete(res));
    return;
  }
  req.resume();
  req.on('end', () => {
    if (parts[1] === 'bytes' && parts.length === 3) {
      answer(res, Number(parts[2]));
    } else if (parts[1] === 'poke' && parts.length === 5) {
      const line = eventLine(decodeURIComponent(parts[2]!), Number(parts[3]));
      for (const s of streams) s.write(line);
      answer(res, Number(parts[4]));
    } else {
      res.writeHead(404).end();
    }
  });
}

const server = createServer({ cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') }, handle);
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no address');
  process.stdout.write(`${JSON.stringify({ url: `https://127.0.0.1:${addr.port}` })}\n`);
});
const shutdown = (): void => {
  for (const s of streams) s.end();
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.stdin.on('end', shutdown);
process.stdin.resume();
process.on('SIGTERM', shutdown);
