// Encoding responses: objects of any depth (one stored deeper than kapi accepts today, by an
// older build, must still be listed and watched, never overflow the stack), and lists written in
// slices that yield to the event loop.
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { parse as yamlParse } from 'yaml';
import { JSON_TARGET, type Target } from '../negotiation.ts';
import { RequestState } from '../request/state.ts';
import { encode, LIST_SLICE, writeError, writeItem, writeListPaced } from './response.ts';

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

describe('encode once: frozen (watch-cached) items', () => {
  const frozen = (n: number, tag: string): object[] =>
    Array.from({ length: n }, (_, i) => Object.freeze({ metadata: Object.freeze({ name: `${tag}-${i}` }), data: Object.freeze({ k: 'v\u2028' }) }));
  const noPause = (): Promise<void> => Promise.resolve();
  const cases = [
    { name: 'a small list', items: 3 },
    { name: 'an empty list', items: 0 },
    { name: 'a paced list', items: LIST_SLICE + 1 },
  ];
  for (const c of cases) {
    it(`${c.name}: each item converted and encoded once across answers, bytes as a whole encoding`, async () => {
      const items = frozen(c.items, c.name);
      const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '7' }, items };
      let converted = 0;
      const convert = (o: unknown): unknown => { converted++; return o; };
      for (let round = 0; round < 2; round++) {
        const out = capture();
        await writeListPaced(out.res, 200, list, convert, JSON_TARGET, new RequestState('/api/v1/configmaps'), noPause, `t/${c.name}`);
        assert.equal(out.body(), `${JSON.stringify(list).replaceAll('\u2028', '\\u2028')}\n`);
      }
      assert.equal(converted, c.items);
    });
  }

  it('a single object (GET): encoded once per endpoint, as writeObject would write it', () => {
    const [item] = frozen(1, 'get') as [object];
    let converted = 0;
    const convert = (o: unknown): unknown => { converted++; return { kind: 'ConfigMap', ...(o as object) }; };
    const bodies = ['a', 'a', 'b'].map((endpoint) => {
      const out = capture();
      writeItem(out.res, 200, item, convert, JSON_TARGET, new RequestState('/api/v1/configmaps/x'), endpoint);
      return out.body();
    });
    assert.equal(bodies[0], encode(convert(item), JSON_TARGET));
    assert.deepEqual([bodies[1], bodies[2]], [bodies[0], bodies[0]]);
    // Two endpoints, and the one call of the assertion above.
    assert.equal(converted, 3);
  });

  it('an object not frozen (read from storage) is converted every time', () => {
    const item = { metadata: { name: 'fresh' } };
    let converted = 0;
    for (let i = 0; i < 2; i++) writeItem(capture().res, 200, item, (o) => { converted++; return o; }, JSON_TARGET, new RequestState('/x'), 'a');
    assert.equal(converted, 2);
  });
});

describe('encode once in protobuf: frozen (watch-cached) items', () => {
  const PROTOBUF_TARGET: Target = { format: 'protobuf', shape: 'object', apiVersion: '', contentType: 'application/vnd.kubernetes.protobuf' };
  const deepFreeze = <T>(v: T): T => {
    if (v !== null && typeof v === 'object') for (const x of Object.values(v)) deepFreeze(x);
    return Object.freeze(v);
  };
  function captureBytes(): { res: ServerResponse; body: () => Buffer } {
    let body: Buffer = Buffer.alloc(0);
    const res = { headersSent: false, statusCode: 0, setHeader() {}, end(b: Buffer) { body = b; } } as unknown as ServerResponse;
    return { res, body: () => body };
  }
  const configMap = (i: number): object => ({
    metadata: {
      name: `cm-${i}`, namespace: 'default', uid: `u-${i}`, resourceVersion: String(100 + i), creationTimestamp: '2026-01-02T03:04:05Z',
      labels: { app: 'x', i: String(i) },
      managedFields: [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: '2026-01-02T03:04:05Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:k': {} } } }],
    },
    data: { k: 'v'.repeat(i % 7), ü: 'ß' },
  });
  const pod = (i: number): object => ({
    metadata: { name: `p-${i}`, namespace: 'default', resourceVersion: String(i + 1) },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '500m', memory: '1Gi' } }, ports: [{ containerPort: 80 + i }] }], priority: i },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z' }] },
  });
  const cases = [
    { name: 'an empty ConfigMapList', kind: 'ConfigMapList', make: configMap, items: 0, typed: true },
    { name: 'a small ConfigMapList', kind: 'ConfigMapList', make: configMap, items: 3, typed: true },
    { name: 'a paced ConfigMapList, items without TypeMeta', kind: 'ConfigMapList', make: configMap, items: LIST_SLICE + 2, typed: false },
    { name: 'a PodList', kind: 'PodList', make: pod, items: 5, typed: true },
  ];
  for (const c of cases) {
    it(`${c.name}: each item converted and encoded once across answers, bytes as a whole encoding`, async () => {
      const itemKind = c.kind.slice(0, -'List'.length);
      const items = Array.from({ length: c.items }, (_, i) => deepFreeze(c.make(i)));
      const list = { apiVersion: 'v1', kind: c.kind, metadata: { resourceVersion: '7', continue: 'abc', remainingItemCount: 3 }, items };
      let converted = 0;
      const convert = (o: unknown): unknown => { converted++; return c.typed ? { apiVersion: 'v1', kind: itemKind, ...(o as object) } : o; };
      const whole = encode({ ...list, items: items.map((o) => c.typed ? { apiVersion: 'v1', kind: itemKind, ...o } : o) }, PROTOBUF_TARGET) as Buffer;
      for (let round = 0; round < 2; round++) {
        const out = captureBytes();
        await writeListPaced(out.res, 200, list, convert, PROTOBUF_TARGET, new RequestState('/api/v1/configmaps'), () => Promise.resolve(), `pb/${c.name}`);
        assert.ok(out.body().equals(whole), `round ${round}: the bytes of a whole-list encoding`);
      }
      assert.equal(converted, c.items);
    });
  }

  it('a single object (GET): encoded once per endpoint, as writeObject would write it', () => {
    const item = deepFreeze(configMap(1));
    let converted = 0;
    const convert = (o: unknown): unknown => { converted++; return { apiVersion: 'v1', kind: 'ConfigMap', ...(o as object) }; };
    const bodies = ['a', 'a', 'b'].map((endpoint) => {
      const out = captureBytes();
      writeItem(out.res, 200, item, convert, PROTOBUF_TARGET, new RequestState('/api/v1/namespaces/default/configmaps/cm-1'), endpoint);
      return out.body();
    });
    const want = encode(convert(item), PROTOBUF_TARGET) as Buffer;
    assert.ok(bodies.every((b) => b.equals(want)));
    // Two endpoints, and the one call for `want`.
    assert.equal(converted, 3);
  });
});
