import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RequestState } from '../../endpoints/request/state.ts';
import { inject } from '../testing/inject.ts';
import { withRetryAfter } from './retry-after.ts';
import type { Filter } from './types.ts';

const serve = (f: Filter | undefined, method: string, url: string, headers: Record<string, string> = {}) => {
  const h = (f ?? ((next) => next))(async (_req, res) => { res.statusCode = 200; res.end('inner'); });
  return inject((req, res) => h(req, res, new RequestState(req.url ?? '/')), { method, url, headers });
};

describe('withRetryAfter', () => {
  const cases = [
    { name: 'before the delay is over: served', shutting: false, url: '/api/v1/pods', ua: 'kubectl', status: 200 },
    { name: 'after: 429 with Retry-After 5', shutting: true, url: '/api/v1/pods', ua: 'kubectl', status: 429 },
    { name: 'health checks are exempt', shutting: true, url: '/readyz', ua: 'kubectl', status: 200 },
    { name: 'other kube-apiservers are exempt', shutting: true, url: '/api/v1/pods', ua: 'kube-apiserver/v1.36.3', status: 200 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await serve(withRetryAfter(() => c.shutting), 'GET', c.url, { 'User-Agent': c.ua });
      assert.equal(r.statusCode, c.status);
      if (c.status === 429) {
        assert.deepEqual([r.text, r.headers['retry-after'], r.headers['connection']],
          ['The apiserver is shutting down, please try again later.\n', '5', 'close']);
      }
    });
  }
});
