import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isStorageError } from './interfaces.ts';
import { checkRequestSize, MAX_REQUEST_BYTES, REQUEST_TOO_LARGE, writeRequestBytes } from './request-size.ts';
import { utf8Bytes } from './value-codec.ts';

describe('checkRequestSize (etcd --max-request-bytes)', () => {
  const key = '/registry/configmaps/ns/name';
  const fits = 'x'.repeat(MAX_REQUEST_BYTES - writeRequestBytes(key, ''));
  const over = `${fits}x`;
  const cases = [
    { name: 'small create', value: 'x', previous: undefined, refused: false },
    { name: 'create at the limit', value: fits, previous: undefined, refused: false },
    { name: 'create one byte over', value: over, previous: undefined, refused: true },
    { name: 'multi-byte characters count as bytes', value: utf8Bytes('é'.repeat(fits.length / 2 + 1)), previous: undefined, refused: true },
    { name: 'update growing over the limit', value: over, previous: 'x', refused: true },
    { name: 'update of an oversize object that does not grow', value: over, previous: over, refused: false },
    { name: 'update shrinking an oversize object', value: `${fits}`.repeat(2), previous: `${over}`.repeat(2), refused: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const run = (): void => checkRequestSize(key, c.value, c.previous);
      if (!c.refused) { run(); return; }
      assert.throws(run, (e: unknown) => isStorageError(e, 'RequestTooLarge') && e.message === REQUEST_TOO_LARGE);
    });
  }
});
