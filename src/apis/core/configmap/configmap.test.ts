import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { ConfigMap } from '../v1/types.ts';
import { configMaps } from './configmap.ts';

const ctx = systemContext('default');
const cm = (extra: Partial<ConfigMap>): ConfigMap => ({ metadata: { name: 'c', namespace: 'default' }, ...extra });

describe('configmaps', () => {
  const cases: { name: string; obj: ConfigMap; want: string[] }[] = [
    { name: 'valid', obj: cm({ data: { 'a.b': 'x' }, binaryData: { bin: 'AAE=' } }), want: [] },
    { name: 'bad key', obj: cm({ data: { 'a/b': 'x' } }),
      want: ["data[a/b]: Invalid value: \"a/b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"] },
    { name: 'duplicate across data and binaryData', obj: cm({ data: { k: 'x' }, binaryData: { k: 'AA==' } }),
      // kube reports the key once, under data
      want: ['data[k]: Invalid value: "k": duplicate of key present in binaryData'] },
    { name: 'too large', obj: cm({ data: { k: 'x'.repeat(1024 * 1024 + 1) } }), want: ['[]: Too long: may not be more than 1048576 bytes'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(configMaps.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));
  it('immutable configmaps keep their data', () => {
    const old = cm({ data: { k: 'v' }, immutable: true });
    const next = cm({ data: { k: 'w' } });
    assert.deepEqual(configMaps.strategy.validateUpdate(ctx, next, old).map(formatFieldError), [
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
  });
  it('table counts data and binaryData', () => {
    const obj = cm({ data: { a: '1' }, binaryData: { b: 'AA==' } });
    assert.equal(configMaps.table[1]?.cell(obj, 0), 2);
  });
});
