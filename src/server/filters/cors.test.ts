import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RequestState } from '../../endpoints/request/state.ts';
import { inject } from '../testing/inject.ts';
import { withCORS } from './cors.ts';
import type { Filter } from './types.ts';

const serve = (f: Filter | undefined, method: string, url: string, headers: Record<string, string> = {}) => {
  const h = (f ?? ((next) => next))(async (_req, res) => { res.statusCode = 200; res.end('inner'); });
  return inject((req, res) => h(req, res, new RequestState(req.url ?? '/')), { method, url, headers });
};

// What kube-apiserver v1.36 answers with --cors-allowed-origins '^https://example\.com$,//foo\.org(:|$)' (asked of the oracle).
const CORS = {
  'access-control-allow-credentials': 'true',
  'access-control-allow-headers': 'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since',
  'access-control-allow-methods': 'POST, GET, OPTIONS, PUT, DELETE, PATCH',
  'access-control-expose-headers': 'Date',
};
const pick = (h: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(h).filter(([k]) => k.startsWith('access-control-')));

describe('withCORS', () => {
  const f = withCORS(['^https://example\\.com$', '//foo\\.org(:|$)']);
  const cases = [
    { name: 'preflight from an allowed origin: 204 before anything else', method: 'OPTIONS', origin: 'https://example.com', status: 204,
      cors: { ...CORS, 'access-control-allow-origin': 'https://example.com' }, body: '' },
    { name: 'a request from an allowed origin gets the headers', method: 'GET', origin: 'http://foo.org:8080', status: 200,
      cors: { ...CORS, 'access-control-allow-origin': 'http://foo.org:8080' }, body: 'inner' },
    { name: 'another origin: served without them', method: 'GET', origin: 'http://evil.net', status: 200, cors: {}, body: 'inner' },
    { name: 'preflight from another origin goes on (kube answers 405)', method: 'OPTIONS', origin: 'http://evil.net', status: 200, cors: {}, body: 'inner' },
    { name: 'no Origin', method: 'GET', origin: undefined, status: 200, cors: {}, body: 'inner' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await serve(f, c.method, '/api/v1/namespaces', c.origin === undefined ? {} : { Origin: c.origin });
      assert.deepEqual([r.statusCode, pick(r.headers), r.text], [c.status, c.cors, c.body]);
    });
  }
  it('is left out of the chain without origins', () => assert.equal(withCORS([]), undefined));
});
