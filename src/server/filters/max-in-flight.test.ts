import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import { parseRequestInfo } from '../../endpoints/request/request-info.ts';
import { RequestState } from '../../endpoints/request/state.ts';
import { inject } from '../testing/inject.ts';
import { withMaxInFlight } from './max-in-flight.ts';

describe('withMaxInFlight (priority and fairness off)', () => {
  const cases = [
    { name: 'a user beyond the limit gets kube\'s plain-text 429', user: { name: 'alice', groups: ['system:authenticated'] }, status: 429 },
    { name: 'system:masters always get an answer', user: { name: 'admin', groups: ['system:masters'] }, status: 200 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      let release = (): void => {};
      const held = new Promise<void>((resolve) => { release = resolve; });
      const h = withMaxInFlight(1, 1)(async (_req, res) => {
        if (res.req.headers['x-hold'] !== undefined) await held;
        res.statusCode = 200;
        res.end('ok');
      });
      const serve = (user: UserInfo, hold: boolean) => inject((req, res) => {
        const state = new RequestState(req.url ?? '/');
        state.info = parseRequestInfo('GET', state.path, state.url.searchParams);
        state.user = user;
        return h(req, res, state);
      }, { method: 'GET', url: '/api/v1/pods', headers: hold ? { 'X-Hold': '1' } : {} });
      const first = serve({ name: 'bob', groups: ['system:authenticated'] }, true);
      const r = await serve(c.user, false);
      assert.equal(r.statusCode, c.status);
      if (c.status === 429) {
        assert.deepEqual([r.text, r.headers['retry-after'], r.headers['content-type']],
          ['Too many requests, please try again later.\n', '1', 'text/plain; charset=utf-8']);
      }
      release();
      assert.equal((await first).statusCode, 200);
    });
  }
});
