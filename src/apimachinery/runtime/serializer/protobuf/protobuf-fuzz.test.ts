// Fuzzing the protobuf body decoder (issue 9): truncated, corrupted and made-up envelopes are
// refused with a 400 StatusError, never a crash, and nothing decodes into more than a small
// multiple of the bytes sent.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { clientSafe, fuzz, hostileKey, jsonSize } from '../../../testing/fuzz.ts';
import { decodeProtobuf, encodeProtobuf } from './index.ts';

const PREFIX = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

function assertBounded(obj: unknown, buf: Buffer): void {
  const size = jsonSize(obj);
  // Field names and JSON punctuation make the JSON form larger than the wire form, but by a bounded factor.
  assert.ok(size <= 40 * buf.length + 1000, `decoded ${size} bytes of JSON from ${buf.length} bytes`);
}

/** A valid ConfigMap envelope with hostile data keys, to mutate. */
const validConfigMap: fc.Arbitrary<Buffer> = fc.dictionary(hostileKey, fc.string({ maxLength: 20 }), { maxKeys: 6, noNullPrototype: true })
  .map((data) => encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { a: 'b' } }, data }));

/** Mutations: flip bytes, cut, splice random bytes, inflate a length varint. */
const mutated: fc.Arbitrary<Buffer> = fc.tuple(validConfigMap, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
  fc.option(fc.nat()), fc.uint8Array({ maxLength: 16 }))
  .map(([buf, flips, cut, extra]) => {
    const b = Buffer.from(buf);
    for (const [at, v] of flips) if (b.length > 4) b[4 + (at % (b.length - 4))] = v;
    const cutAt = cut === null ? b.length : 4 + (cut % Math.max(1, b.length - 4));
    return Buffer.concat([b.subarray(0, cutAt), Buffer.from(extra)]);
  });

const hostileProtobuf: fc.Arbitrary<Buffer> = fc.oneof(
  mutated,
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.concat([PREFIX, Buffer.from(b)])),
  fc.uint8Array({ maxLength: 32 }).map((b) => Buffer.from(b)),
  // Length-delimited fields claiming far more bytes than there are, and deeply nested groups.
  fc.constantFrom(
    Buffer.concat([PREFIX, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f])]),
    Buffer.concat([PREFIX, Buffer.from([0x12, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01])]),
    Buffer.concat([PREFIX, Buffer.alloc(20_000, 0x0b)]),
    Buffer.concat([PREFIX, Buffer.from('\x0a\x0c\x0a\x02v1\x12\x09ConfigMap'), Buffer.alloc(5000, 0x1a)]),
  ),
);

describe('decodeProtobuf fuzzing', () => {
  it('refuses malformed bodies with a 400 and bounds what it decodes', () => {
    fuzz(hostileProtobuf, (buf) => {
      const out = clientSafe(() => decodeProtobuf(buf));
      if (out !== undefined) assertBounded(out.obj, buf);
    }, { seed: 9101, numRuns: 400 });
  });

  it('round-trips prototype-named and unicode data keys', () => {
    fuzz(fc.dictionary(hostileKey, fc.string({ unit: 'grapheme', maxLength: 10 }), { maxKeys: 6, noNullPrototype: true }), (data) => {
      const buf = encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data });
      const back = decodeProtobuf(buf).obj['data'] as Record<string, string> | undefined;
      for (const [k, v] of Object.entries(data)) assert.ok(back !== undefined && Object.hasOwn(back, k) && back[k] === v, `data[${JSON.stringify(k)}]`);
    }, { seed: 9102, numRuns: 100 });
  });
});
