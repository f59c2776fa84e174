import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeChunked, inject } from './inject.ts';

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Echoes what it got: method, url, a header and the body. */
async function echo(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  const out = JSON.stringify({ method: req.method, url: req.url, type: req.headers['content-type'] ?? '', body });
  res.statusCode = req.method === 'POST' ? 201 : 200;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Set-Cookie', ['a=1', 'b=2']);
  res.end(out);
}

test('inject sends method, url, headers and body, and parses status, headers and body back', async () => {
  const cases: { name: string; method: string; body?: string | object; headers?: Record<string, string>; code: number; type: string; got: string }[] = [
    { name: 'a GET without body', method: 'GET', code: 200, type: '', got: '' },
    { name: 'a POST of an object as JSON', method: 'POST', body: { a: 1 }, code: 201, type: 'application/json', got: '{"a":1}' },
    { name: 'a PUT of text with its own type', method: 'PUT', body: 'x: 1', headers: { 'Content-Type': 'application/yaml' }, code: 200, type: 'application/yaml', got: 'x: 1' },
  ];
  for (const c of cases) {
    const r = await inject(echo, { method: c.method, url: '/p?q=1', ...(c.body === undefined ? {} : { body: c.body }), ...(c.headers === undefined ? {} : { headers: c.headers }) });
    assert.equal(r.statusCode, c.code, c.name);
    assert.equal(r.headers['content-type'], 'application/json', c.name);
    assert.deepEqual(r.headers['set-cookie'], ['a=1', 'b=2'], c.name);
    assert.deepEqual(r.json(), { method: c.method, url: '/p?q=1', type: c.type, body: c.got }, c.name);
  }
});

test('inject decodes a chunked body written in pieces', async () => {
  const r = await inject((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write('hello ');
    setImmediate(() => res.end('world'));
  }, { method: 'GET', url: '/' });
  assert.equal(r.headers['transfer-encoding'], 'chunked');
  assert.equal(r.text, 'hello world');
});

test('inject rejects when the handler throws before answering', async () => {
  await assert.rejects(inject(() => { throw new Error('boom'); }, { method: 'GET', url: '/' }), /boom/);
});

test('decodeChunked', () => {
  const cases: { name: string; raw: string; want: string }[] = [
    { name: 'two chunks', raw: '5\r\nhello\r\n1\r\n!\r\n0\r\n\r\n', want: 'hello!' },
    { name: 'a chunk extension', raw: '3;x=y\r\nabc\r\n0\r\n\r\n', want: 'abc' },
    { name: 'empty', raw: '0\r\n\r\n', want: '' },
  ];
  for (const c of cases) assert.equal(decodeChunked(Buffer.from(c.raw)).toString(), c.want, c.name);
});
