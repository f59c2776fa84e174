import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestState } from '../../endpoints/request/state.ts';
import { withCacheControl } from './cache-control.ts';

describe('withCacheControl', () => {
  const cases: { name: string; handlerSets?: string; want: string }[] = [
    { name: 'every answer is no-cache, private', want: 'no-cache, private' },
    { name: 'a handler may choose its own (OpenAPI documents)', handlerSets: 'public, immutable', want: 'public, immutable' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const headers = new Map<string, unknown>();
      const res = {
        hasHeader: (k: string) => headers.has(k.toLowerCase()),
        setHeader: (k: string, v: unknown) => { headers.set(k.toLowerCase(), v); },
      } as unknown as ServerResponse;
      const handler = withCacheControl()((_req, r) => {
        if (c.handlerSets !== undefined) r.setHeader('Cache-Control', c.handlerSets);
        return Promise.resolve();
      });
      await handler({} as IncomingMessage, res, new RequestState('/api/v1/pods'));
      assert.equal(headers.get('cache-control'), c.want);
    });
  }
});
