// Encoding responses: objects of any depth (one stored deeper than kapi accepts today, by an
// older build, must still be listed and watched, never overflow the stack), and lists written in
// slices that yield to the event loop.
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { parse as yamlParse } from 'yaml';
import { JSON_TARGET, type Target } from '../negotiation.ts';
import { RequestState } from '../request/state.ts';
import { encode, LIST_SLICE, writeError, writeListPaced } from './response.ts';

const YAML_TARGET: Target = { format: 'yaml', shape: 'object', apiVersion: '', contentType: 'application/yaml' };

function nest(levels: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

test('objects of any depth encode as JSON and YAML', () => {
  const cases = [
    { name: 'json shallow', target: JSON_TARGET, levels: 3, want: '{"a":{"a":{"a":"leaf"}}}\n' },
    { name: 'yaml shallow, go-yaml block style', target: YAML_TARGET, levels: 2, want: 'a:\n  a: leaf\n' },
    { name: 'json 100k', target: JSON_TARGET, levels: 100_000, want: `${'{"a":'.repeat(100_000)}"leaf"${'}'.repeat(100_000)}\n` },
    { name: 'yaml 100k, as a flow (JSON) document', target: YAML_TARGET, levels: 100_000, want: `${'{"a":'.repeat(100_000)}"leaf"${'}'.repeat(100_000)}\n` },
  ];
  for (const c of cases) assert.equal(encode({ ...(nest(c.levels) as object) }, c.target), c.want, c.name);
  // Between the block writer's safe depth and the cap: still YAML with the same content.
  const mid = nest(400);
  assert.deepEqual(yamlParse(encode(mid, YAML_TARGET) as string), mid);
});

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
      // Go's encoder: U+2028 escaped, one trailing newline.
      assert.equal(out.body(), `${JSON.stringify(list).replaceAll('\u2028', '\\u2028')}\n`);
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

describe('writeError for a client that went away mid-body', () => {
  it('writes and logs nothing', (t) => {
    const logged = t.mock.method(console, 'error', () => {});
    let wrote = false;
    const res = { destroyed: true, socket: null, headersSent: false, setHeader: () => { wrote = true; }, end: () => { wrote = true; } } as unknown as ServerResponse;
    writeError(res, Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    assert.equal(wrote, false);
    assert.equal(logged.mock.callCount(), 0);
  });
});
