import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RESPONSE_FIELDS, WATCH_RESPONSE_FIELDS, type UnaryMethods } from '../messages.ts';
import { etcdMethod } from './load.ts';

describe('etcd methods', () => {
  const methods = Object.keys(RESPONSE_FIELDS) as (keyof UnaryMethods)[];
  for (const m of methods) {
    it(`${m}: an empty response decodes with every declared field`, () => {
      const [service = '', name = ''] = m.split('/');
      const def = etcdMethod<object, UnaryMethods[typeof m][1]>(service, name, RESPONSE_FIELDS[m]);
      assert.deepEqual(Object.keys(RESPONSE_FIELDS[m]).filter((f) => !(f in def.deserialize(Buffer.alloc(0)))), []);
    });
  }
  it('Watch/Watch: an empty response decodes with every declared field', () => {
    const msg = etcdMethod('Watch', 'Watch', WATCH_RESPONSE_FIELDS).deserialize(Buffer.alloc(0));
    assert.equal(msg.watch_id, '0');
  });
  it('a response without a field of its message does not decode', () => {
    const def = etcdMethod<object, { header: null; nope: string }>('KV', 'Compact', { header: true, nope: true });
    assert.throws(() => def.deserialize(Buffer.alloc(0)), /etcd KV\/Compact: response without the fields of its message/);
  });
  it('a method the proto lacks', () => {
    assert.throws(() => etcdMethod('KV', 'Nope', {}), /etcd proto has no method KV\/Nope/);
  });
});
