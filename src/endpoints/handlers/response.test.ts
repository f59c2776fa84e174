import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import type { Target } from '../negotiation.ts';
import { RequestState } from '../request/state.ts';
import { LIST_SLICE, writeListPaced } from './response.ts';

function capture(): { res: ServerResponse; body: () => string; code: () => number | undefined } {
  let body = '';
  let code: number | undefined;
  const res = {
    headersSent: false,
    set statusCode(c: number) { code = c; },
    setHeader() {},
    end(b: Buffer) { body = b.toString(); },
  } as unknown as ServerResponse;
  return { res, body: () => body, code: () => code };
}

const JSON_TARGET: Target = { format: 'json', shape: 'object', apiVersion: 'v1', contentType: 'application/json' };

describe('writeListPaced', () => {
  const cases = [
    { name: 'empty', items: 0 },
    { name: 'one slice', items: LIST_SLICE },
    { name: 'several slices', items: 3 * LIST_SLICE + 7 },
  ];
  for (const c of cases) {
    it(`writes JSON identical to encoding the whole list at once: ${c.name}`, async () => {
      const items = Array.from({ length: c.items }, (_, i) => ({ metadata: { name: `cm-${i}` }, data: { k: 'v\u2028"' } }));
      const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '7' }, items };
      const out = capture();
      let pauses = 0;
      await writeListPaced(out.res, 200, list, (o) => o, JSON_TARGET, new RequestState('/api/v1/configmaps'),
        () => { pauses++; return Promise.resolve(); });
      assert.equal(out.body(), JSON.stringify(list));
      assert.equal(out.code(), 200);
      assert.equal(pauses, c.items > LIST_SLICE ? Math.ceil(c.items / LIST_SLICE) : 0);
    });
  }

  it('stops when a pause rejects (the request timed out) and writes nothing', async () => {
    const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: {}, items: Array.from({ length: 2 * LIST_SLICE }, () => ({})) };
    const out = capture();
    await assert.rejects(writeListPaced(out.res, 200, list, (o) => o, JSON_TARGET, new RequestState('/x'),
      () => Promise.reject(new Error('deadline'))), /deadline/);
    assert.equal(out.body(), '');
  });
});
