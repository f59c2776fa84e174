import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bytesToValue, valueToBytes } from './bytes.ts';

describe('backend value bytes', () => {
  const cases = [
    { name: 'JSON text with non-ASCII', bytes: Buffer.from('{"a":"é ✓"}', 'utf8') },
    { name: 'encrypted binary', bytes: Buffer.concat([Buffer.from('k8s:enc:aescbc:v1:k:'), Buffer.from([0, 255, 128, 10, 0xc3])]) },
    { name: 'protobuf envelope', bytes: Buffer.concat([Buffer.from('k8s\0'), Buffer.from([0x0a, 0x0b, 0xff, 0x80])]) },
    { name: 'empty', bytes: Buffer.alloc(0) },
  ];
  for (const c of cases) {
    it(`${c.name} round-trips byte for byte`, () => {
      assert.deepEqual(valueToBytes(bytesToValue(c.bytes)), c.bytes);
    });
  }
});
