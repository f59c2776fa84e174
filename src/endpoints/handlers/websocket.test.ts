import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFrame, encodeFrame } from './websocket.ts';

/** A client frame (masked with `mask`) of one opcode and payload. */
function clientFrame(opcode: number, payload: Buffer, mask = Buffer.from([0x11, 0x22, 0x33, 0x44])): Buffer {
  const plain = encodeFrame(opcode, payload);
  const headerLength = plain.length - payload.length;
  const out = Buffer.concat([plain.subarray(0, headerLength), mask, payload.map((b, i) => b ^ (mask[i % 4] ?? 0))]);
  out[1] = (out[1] ?? 0) | 0x80;
  return out;
}

describe('WebSocket frames', () => {
  const sizes = [
    { name: 'empty', length: 0, header: [0x81, 0] },
    { name: '125 bytes: 7-bit length', length: 125, header: [0x81, 125] },
    { name: '126 bytes: 16-bit length', length: 126, header: [0x81, 126, 0, 126] },
    { name: '65536 bytes: 64-bit length', length: 65536, header: [0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0] },
  ];
  for (const c of sizes) {
    it(`server frames carry their length (${c.name})`, () => {
      const f = encodeFrame(1, Buffer.alloc(c.length, 0x61));
      assert.deepEqual([...f.subarray(0, c.header.length)], c.header);
      assert.equal(f.length, c.header.length + c.length);
    });
  }

  const decodes = [
    { name: 'a masked ping', frame: clientFrame(9, Buffer.from('hi')), opcode: 9, payload: 'hi' },
    { name: 'a masked close with status 1000', frame: clientFrame(8, Buffer.from([3, 0xe8])), opcode: 8, payload: '\u0003\u00e8' },
    { name: 'an unmasked text frame', frame: encodeFrame(1, Buffer.from('x'.repeat(300))), opcode: 1, payload: 'x'.repeat(300) },
  ];
  for (const c of decodes) {
    it(`client frames decode (${c.name})`, () => {
      const f = decodeFrame(Buffer.concat([c.frame, Buffer.from('next')]));
      assert.ok(f !== undefined && f !== 'too large');
      assert.equal(f.opcode, c.opcode);
      assert.equal(f.payload.toString('latin1'), c.payload);
      assert.equal(f.size, c.frame.length);
    });
  }

  it('an incomplete frame waits for more bytes', () => {
    const whole = clientFrame(1, Buffer.from('hello'));
    for (let n = 0; n < whole.length; n++) assert.equal(decodeFrame(whole.subarray(0, n)), undefined, `${n} bytes`);
  });

  it('a frame beyond 32 MiB is refused before its payload arrives', () => {
    const header = Buffer.from([0x82, 127, 0, 0, 0, 0, 0x02, 0, 0, 1]);
    assert.equal(decodeFrame(header), 'too large');
  });
});
