import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RequestState } from '../../endpoints/request/state.ts';
import { inject } from '../testing/inject.ts';
import { withHSTS } from './hsts.ts';
import type { Filter } from './types.ts';

const serve = (f: Filter | undefined, method: string, url: string, headers: Record<string, string> = {}) => {
  const h = (f ?? ((next) => next))(async (_req, res) => { res.statusCode = 200; res.end('inner'); });
  return inject((req, res) => h(req, res, new RequestState(req.url ?? '/')), { method, url, headers });
};

describe('withHSTS', () => {
  it('joins the directives with "; "', async () => {
    const r = await serve(withHSTS(['max-age=31536000', 'includeSubDomains', 'preload']), 'GET', '/');
    assert.equal(r.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains; preload');
  });
  it('is left out of the chain without directives', () => assert.equal(withHSTS([]), undefined));
});
