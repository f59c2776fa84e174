import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoTime, unmarshalGoTime } from './go-time.ts';

const ok = (value: string) => ({ ok: true, value });
const err = (error: string) => ({ ok: false, error });

describe('metav1.Time and MicroTime JSON decoding', () => {
  it('Time: RFC 3339 in, whole seconds in UTC out', () => {
    assert.deepEqual(parseGoTime('2024-01-02T03:04:05Z', 'time'), ok('2024-01-02T03:04:05Z'));
    assert.deepEqual(parseGoTime('2024-01-02T03:04:05.987654321Z', 'time'), ok('2024-01-02T03:04:05Z'));
    assert.deepEqual(parseGoTime('2024-01-02T01:30:05+02:00', 'time'), ok('2024-01-01T23:30:05Z'));
    assert.deepEqual(parseGoTime('2024-02-29T23:59:59-00:30', 'time'), ok('2024-03-01T00:29:59Z'));
    assert.deepEqual(parseGoTime('0099-01-02T03:04:05Z', 'time'), ok('0099-01-02T03:04:05Z'));
  });

  it('MicroTime: exactly six fractional digits in, six in UTC out', () => {
    assert.deepEqual(parseGoTime('2024-01-02T03:04:05.123456Z', 'microtime'), ok('2024-01-02T03:04:05.123456Z'));
    assert.deepEqual(parseGoTime('2024-01-02T03:04:05.000001+01:00', 'microtime'), ok('2024-01-02T02:04:05.000001Z'));
    assert.deepEqual(parseGoTime('2024-01-02T03:04:05.123Z', 'microtime'),
      err('parsing time "2024-01-02T03:04:05.123Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".123Z" as ".000000"'));
    assert.deepEqual(parseGoTime('2024-01-02T03:04:05Z', 'microtime'),
      err('parsing time "2024-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"'));
    assert.deepEqual(parseGoTime('2024-01-02T03:04:05.1234567Z', 'microtime'),
      err('parsing time "2024-01-02T03:04:05.1234567Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7Z" as "Z07:00"'));
  });

  it('names the layout element that does not match, as time.Parse does', () => {
    assert.deepEqual(parseGoTime('yesterday', 'time'),
      err('parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'));
    assert.deepEqual(parseGoTime('2024-01-02 03:04:05Z', 'time'),
      err('parsing time "2024-01-02 03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 03:04:05Z" as "T"'));
    assert.deepEqual(parseGoTime('2024-01-02T03:04:05', 'time'),
      err('parsing time "2024-01-02T03:04:05" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"'));
    assert.deepEqual(parseGoTime('2024-01-02T03:04:05Zjunk', 'time'), err('parsing time "2024-01-02T03:04:05Zjunk": extra text: "junk"'));
  });

  it('refuses out-of-range fields with Go\'s messages', () => {
    assert.deepEqual(parseGoTime('2024-13-02T03:04:05Z', 'time'), err('parsing time "2024-13-02T03:04:05Z": month out of range'));
    assert.deepEqual(parseGoTime('2023-02-29T03:04:05Z', 'time'), err('parsing time "2023-02-29T03:04:05Z": day out of range'));
    assert.deepEqual(parseGoTime('2024-01-02T24:04:05Z', 'time'), err('parsing time "2024-01-02T24:04:05Z": hour out of range'));
    assert.deepEqual(parseGoTime('2024-01-02T03:60:05Z', 'time'), err('parsing time "2024-01-02T03:60:05Z": minute out of range'));
    assert.deepEqual(parseGoTime('2024-01-02T03:04:60Z', 'time'), err('parsing time "2024-01-02T03:04:60Z": second out of range'));
  });

  it('UnmarshalJSON: null is the zero time, a non-string is a type error', () => {
    assert.equal(unmarshalGoTime(null, 'time'), undefined);
    assert.deepEqual(unmarshalGoTime(5, 'time'), err('json: cannot unmarshal number into Go value of type string'));
    assert.deepEqual(unmarshalGoTime({}, 'microtime'), err('json: cannot unmarshal object into Go value of type string'));
  });
});
