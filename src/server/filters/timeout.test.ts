import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { newTimeoutError, StatusError } from '../../apimachinery/errors/status-error.ts';
import { checkDeadline, yieldPoint } from '../../apimachinery/request/deadline.ts';
import { parseRequestInfo } from '../../endpoints/request/request-info.ts';
import { RequestState } from '../../endpoints/request/state.ts';
import { inject } from '../testing/inject.ts';
import { withTimeout } from './timeout.ts';
import type { Handler } from './types.ts';

interface Captured { code?: number; body?: string; ends: number }

/** Keeps the event loop busy for `ms` without a single await: what a long patch or decode does. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) { /* spin */ }
}

async function run(url: string, handler: Handler, timeoutSeconds = 0.02): Promise<{ res: Captured; state: RequestState; err: unknown }> {
  const res: Captured = { ends: 0 };
  const state = new RequestState(url);
  state.info = parseRequestInfo('POST', state.url.pathname, state.url.searchParams);
  const fake = {
    headersSent: false,
    set statusCode(c: number) { res.code = c; },
    setHeader() {},
    getHeaderNames: () => [],
    removeHeader() {},
    end(b?: Buffer | string) { res.ends++; if (b !== undefined && res.body === undefined) res.body = b.toString(); fake.headersSent = true; },
  };
  let err: unknown;
  try {
    await withTimeout(timeoutSeconds)(handler)({ method: 'POST', url } as IncomingMessage, fake as unknown as ServerResponse, state);
  } catch (e) {
    err = e;
  }
  return { res, state, err };
}

/** What kube-apiserver v1.36's timeout filter writes (asked of the oracle): no kind or apiVersion. */
const TIMEOUT_STATUS = {
  metadata: {}, status: 'Failure', message: 'Timeout: request did not complete within the allotted timeout',
  reason: 'Timeout', details: {}, code: 504,
};

describe('withTimeout', () => {
  const cases: { name: string; work: (ctx: ReturnType<RequestState['context']>, wrote: () => void) => Promise<void> }[] = [
    { name: 'CPU-busy past the deadline, then a storage write (checkDeadline first)',
      work: async (ctx, wrote) => { busy(60); checkDeadline(ctx); wrote(); await Promise.resolve(); } },
    { name: 'CPU-busy past the deadline, then a yield point',
      work: async (ctx, wrote) => { busy(60); await yieldPoint(ctx); wrote(); } },
    { name: 'CPU-busy in slices with yield points in between',
      work: async (ctx, wrote) => { for (let i = 0; i < 10; i++) { busy(10); await yieldPoint(ctx); } wrote(); } },
  ];
  for (const c of cases) {
    it(`answers kube's 504 and the handler writes nothing: ${c.name}`, async () => {
      let writes = 0;
      const { res, state, err } = await run('/api/v1/namespaces/ns/configmaps', async (_req, _res, st) => {
        await c.work(st.context(), () => { writes++; });
      });
      assert.equal(err, undefined);
      assert.equal(res.code, 504);
      assert.deepEqual(JSON.parse(res.body ?? ''), TIMEOUT_STATUS);
      assert.equal(writes, 0);
      assert.equal(state.abort.signal.aborted, true);
    });
  }

  it('a request within its deadline is left alone', async () => {
    let writes = 0;
    const { res, err } = await run('/api/v1/namespaces/ns/configmaps', async (_req, r, st) => {
      await yieldPoint(st.context());
      checkDeadline(st.context());
      writes++;
      r.end(Buffer.from('ok'));
    }, 60);
    assert.equal(err, undefined);
    assert.deepEqual([res.body, writes], ['ok', 1]);
  });

  it('a Timeout the handler answers on purpose is not the request timeout', async () => {
    const own = newTimeoutError('Too large resource version: 9, current: 1', 1);
    const { res, err } = await run('/api/v1/namespaces/ns/configmaps', () => Promise.reject(own), 60);
    assert.equal(err, own);
    assert.ok(err instanceof StatusError);
    assert.equal(res.code, undefined);
  });

  it('?timeout= shortens the deadline and sets it on the request context', async () => {
    let deadline: number | undefined;
    const before = Date.now();
    await run('/api/v1/namespaces/ns/configmaps?timeout=5s', (_req, r, st) => {
      deadline = st.context().deadline;
      r.end(Buffer.from('ok'));
      return Promise.resolve();
    }, 60);
    assert.ok(deadline !== undefined && deadline >= before + 5000 && deadline < before + 60_000, String(deadline));
  });
});

describe('withTimeout while the request still waits (a body on its way, storage)', () => {
  it("answers the filter's 504 as text/plain, without the headers set inside it", async () => {
    const handler = withTimeout(0.02)(async (_req, res, state) => {
      res.setHeader('Warning', '299 - "inner"');
      res.setHeader('X-Kubernetes-PF-FlowSchema-UID', 'u');
      await new Promise<void>((resolve) => state.abort.signal.addEventListener('abort', () => resolve()));
    });
    const r = await inject((req, res) => {
      res.setHeader('Audit-Id', 'outer');
      res.setHeader('X-Kubernetes-PF-PriorityLevel-UID', 'p');
      const state = new RequestState(req.url ?? '/');
      state.info = parseRequestInfo('POST', state.path, state.url.searchParams);
      return handler(req, res, state);
    }, { method: 'POST', url: '/api/v1/namespaces/ns/configmaps' });
    assert.equal(r.statusCode, 504);
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    assert.deepEqual(JSON.parse(r.text), TIMEOUT_STATUS);
    assert.ok(r.text.endsWith('}\n'));
    assert.equal(r.headers['audit-id'], 'outer');
    for (const h of ['warning', 'x-kubernetes-pf-flowschema-uid', 'x-kubernetes-pf-prioritylevel-uid']) assert.equal(r.headers[h], undefined, h);
  });
});
