// Caches keyed by request input keep only short keys: a body or header can be megabytes long, and
// a bounded number of such keys would still pin hundreds of megabytes for the life of the process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cachedKindCount, messageForKind } from '../runtime/serializer/protobuf/descriptors.ts';
import { cachedGroupVersionKeyLength, parseGroupVersion } from './group-version.ts';

const long = 'x'.repeat(100_000);

test('caches keyed by request input keep no long keys', () => {
  assert.deepEqual(parseGroupVersion(`${long}/v1`), { group: long, version: 'v1' });
  assert.ok(cachedGroupVersionKeyLength() < 1000);

  const before = cachedKindCount();
  assert.equal(messageForKind('v1', long), undefined);
  assert.equal(messageForKind(`${long}/v1`, 'Pod'), undefined);
  assert.equal(cachedKindCount(), before);
  assert.notEqual(messageForKind('v1', 'Pod'), undefined);
});
