// Protobuf wire primitives: varints (as gogo-protobuf writes int32/int64, negative values
// sign-extended to 10 bytes) and a bounds-checked reader.
// Counterpart of github.com/gogo/protobuf/proto (varint and length-delimited encoding).

/** Bytes a varint of n takes; n is an integer (negative ones take 10). */
export function varintLen(n: number): number {
  if (n < 0) return 10;
  if (n < 0x80) return 1;
  if (n < 0x4000) return 2;
  if (n < 0x200000) return 3;
  if (n < 0x10000000) return 4;
  let len = 4;
  for (let v = Math.floor(n / 0x10000000); v > 0; v = Math.floor(v / 0x80)) len++;
  return len;
}

/** Writes the varint of n at pos; returns the position after it. */
export function writeVarint(buf: Buffer, pos: number, n: number): number {
  if (n < 0) return writeVarintBig(buf, pos, BigInt.asUintN(64, BigInt(n)));
  let p = pos;
  let v = n;
  while (v >= 0x80) {
    buf[p++] = (v % 0x80) | 0x80;
    v = v < 0x100000000 ? v >>> 7 : Math.floor(v / 0x80);
  }
  buf[p++] = v;
  return p;
}

function writeVarintBig(buf: Buffer, pos: number, n: bigint): number {
  let p = pos;
  let v = n;
  while (v >= 0x80n) {
    buf[p++] = Number(v & 0x7fn) | 0x80;
    v >>= 7n;
  }
  buf[p++] = Number(v);
  return p;
}

export class WireError extends Error {}

/** Reads one message's bytes; `pos` advances as fields are read. */
export class Reader {
  pos: number;
  /** How many messages decodeMessage is inside (it recurses; see MAX_OBJECT_DEPTH). */
  depth = 0;
  constructor(readonly buf: Buffer, start = 0) {
    this.pos = start;
  }

  /** An unsigned varint below 2^53, or a negative int64 (sign-extended to 10 bytes). */
  varint(end: number): number {
    const buf = this.buf;
    let p = this.pos;
    if (p >= end) throw new WireError('unexpected end of data');
    let b = buf[p++] ?? 0;
    if (b < 0x80) {
      this.pos = p;
      return b;
    }
    let v = b & 0x7f;
    for (let shift = 7; shift < 28; shift += 7) {
      if (p >= end) throw new WireError('unexpected end of data');
      b = buf[p++] ?? 0;
      v |= (b & 0x7f) << shift;
      if (b < 0x80) {
        this.pos = p;
        return v;
      }
    }
    return this.varintSlow(end);
  }

  private varintSlow(end: number): number {
    let v = 0n;
    let shift = 0n;
    for (let p = this.pos; ; shift += 7n) {
      if (p >= end || shift > 63n) throw new WireError(p >= end ? 'unexpected end of data' : 'varint overflow');
      const b = this.buf[p++] ?? 0;
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) {
        this.pos = p;
        return Number(BigInt.asIntN(64, v));
      }
    }
  }

  /** A length prefix, checked against the end of the enclosing message; returns the end. */
  lengthEnd(end: number): number {
    const len = this.varint(end);
    const e = this.pos + len;
    if (len < 0 || e > end) throw new WireError('length exceeds the enclosing message');
    return e;
  }

  /** Skips a field of the given wire type. */
  skip(wireType: number, end: number): void {
    switch (wireType) {
      case 0: this.varint(end); return;
      case 1: this.pos += 8; break;
      case 2: this.pos = this.lengthEnd(end); return;
      case 5: this.pos += 4; break;
      // gogo-protobuf's text, which kube reports for a corrupt stored value.
      default: throw new WireError(`proto: illegal wireType ${wireType}`);
    }
    if (this.pos > end) throw new WireError('unexpected end of data');
  }
}

/** UTF-8 byte length of s; short ASCII strings are counted in JS, which beats a native call. */
export function utf8Len(s: string): number {
  const n = s.length;
  if (n > 64) return Buffer.byteLength(s);
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) >= 0x80) return Buffer.byteLength(s);
  return n;
}

/** Writes s (whose UTF-8 length is len) at pos; returns the position after it. */
export function writeUtf8(buf: Buffer, pos: number, s: string, len: number): number {
  if (len === s.length && len <= 64) {
    for (let i = 0; i < len; i++) buf[pos + i] = s.charCodeAt(i);
    return pos + len;
  }
  return pos + buf.write(s, pos, len, 'utf8');
}

/** Reads buf[start, end) as UTF-8; short ASCII runs are decoded in JS. */
export function readUtf8(buf: Buffer, start: number, end: number): string {
  if (end - start > 16) return buf.toString('utf8', start, end);
  let s = '';
  for (let i = start; i < end; i++) {
    const c = buf[i] ?? 0;
    if (c >= 0x80) return buf.toString('utf8', start, end);
    s += String.fromCharCode(c);
  }
  return s;
}
