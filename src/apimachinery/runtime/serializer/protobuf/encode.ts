// JSON form → protobuf message bytes. Two passes over the object: the first computes every
// nested message's length and every string's byte length (in visiting order, into a Plan), the
// second writes into one buffer of the exact size, so each encoding allocates one Buffer.
// Counterpart of k8s.io/apimachinery/pkg/runtime/serializer/protobuf (encoding, through the
// generated Marshal methods).
import { T_BOOL, T_BYTES, T_DOUBLE, T_INT32, T_INT64, T_MESSAGE, T_STRING, type FieldInfo, type MessageType } from './descriptors.ts';
import { isUnion, unionFields } from './schema-unions.ts';
import { utf8Len, varintLen, writeUtf8, writeVarint } from './wire.ts';
import { parseDuration, parseMicroTime, parseTimeSeconds } from './well-known.ts';

/** Lengths and converted values from the sizing pass, read back in the same order when writing. */
export interface Plan {
  readonly nums: number[];
  readonly strs: (string | Buffer)[];
}

export const newPlan = (): Plan => ({ nums: [], strs: [] });

type Obj = Record<string, unknown>;

function fail(what: string, v: unknown): never {
  throw new Error(`cannot encode ${JSON.stringify(v)} as protobuf ${what}`);
}

/** A map's keys in the order Go's marshaller writes them: sorted (byte order), so the bytes are kube's. */
const goMapKeys = (m: Obj): string[] => Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function str(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null) return '';
  return fail('string', v);
}

function int(v: unknown): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (v === null) return 0;
  return fail('integer', v);
}

// Go marshals a null Time or RawExtension field as an empty message, and decodes it back to null.
const nullAsEmpty = (f: FieldInfo): boolean => {
  const s = f.message?.special;
  return s === 'time' || s === 'microtime' || s === 'raw' || s === 'fieldsv1';
};

/** Byte length of a message's fields (without its own tag and length). */
export function sizeMessage(v: unknown, t: MessageType, p: Plan): number {
  if (isUnion(t.special)) return sizeFields(unionFields(t.special, v), t, p);
  if (t.special !== undefined) return sizeSpecial(v, t, p);
  return sizeFields(v, t, p);
}

function sizeFields(v: unknown, t: MessageType, p: Plan): number {
  if (v === null) return 0;
  if (!isObj(v)) return fail(t.name, v);
  let n = 0;
  for (const f of t.fields) {
    const fv = f.inline ? v : v[f.json];
    if (fv === undefined) continue;
    if (fv === null) {
      if (!f.repeated && !f.map && nullAsEmpty(f)) n += f.tagLen + 1;
      continue;
    }
    if (f.map) {
      if (!isObj(fv)) fail(`map ${f.json}`, fv);
      const value = f.value as FieldInfo;
      for (const k of goMapKeys(fv)) {
        const ev = fv[k];
        if (ev === undefined) continue;
        const slot = p.nums.length;
        p.nums.push(0);
        const klen = utf8Len(k);
        p.nums.push(klen);
        const len = 1 + varintLen(klen) + klen + sizeValue(value, ev, p);
        p.nums[slot] = len;
        n += f.tagLen + varintLen(len) + len;
      }
    } else if (f.repeated) {
      if (!Array.isArray(fv)) fail(`list ${f.json}`, fv);
      for (const el of fv as unknown[]) n += sizeValue(f, el, p);
    } else {
      n += sizeValue(f, fv, p);
    }
  }
  return n;
}

/** Byte length of one occurrence of a field, tag included. */
function sizeValue(f: FieldInfo, v: unknown, p: Plan): number {
  switch (f.type) {
    case T_STRING: {
      const len = utf8Len(str(v));
      p.nums.push(len);
      return f.tagLen + varintLen(len) + len;
    }
    case T_BYTES: {
      const b = Buffer.from(str(v), 'base64');
      p.strs.push(b);
      return f.tagLen + varintLen(b.length) + b.length;
    }
    case T_BOOL:
      if (typeof v !== 'boolean' && v !== null) fail('bool', v);
      return f.tagLen + 1;
    case T_DOUBLE:
      if (typeof v !== 'number' && v !== null) fail('number', v);
      return f.tagLen + 8;
    case T_INT32:
    case T_INT64:
      return f.tagLen + varintLen(int(v));
    default: {
      const slot = p.nums.length;
      p.nums.push(0);
      const len = sizeMessage(v, f.message as MessageType, p);
      p.nums[slot] = len;
      return f.tagLen + varintLen(len) + len;
    }
  }
}

function quantityString(v: unknown): string {
  return typeof v === 'number' ? String(v) : str(v);
}

function sizeSpecial(v: unknown, t: MessageType, p: Plan): number {
  switch (t.special) {
    case 'time': {
      if (v === null) return 0;
      const s = parseTimeSeconds(str(v));
      p.nums.push(s);
      return 1 + varintLen(s) + 2; // seconds, and nanos always 0
    }
    case 'microtime': {
      if (v === null) return 0;
      const { seconds, nanos } = parseMicroTime(str(v));
      p.nums.push(seconds, nanos);
      return 1 + varintLen(seconds) + 1 + varintLen(nanos);
    }
    case 'duration': {
      const ns = typeof v === 'number' ? v : parseDuration(str(v));
      p.nums.push(ns);
      return 1 + varintLen(ns);
    }
    case 'quantity': {
      const len = utf8Len(quantityString(v));
      p.nums.push(len);
      return 1 + varintLen(len) + len;
    }
    case 'intorstring': {
      if (typeof v === 'number') return 2 + 1 + varintLen(int(v)) + 2;
      const len = utf8Len(str(v));
      p.nums.push(len);
      return 2 + 2 + 1 + varintLen(len) + len;
    }
    case 'raw':
    case 'json':
    case 'fieldsv1': {
      if (v === null) return 0;
      const json = JSON.stringify(v);
      const len = utf8Len(json);
      p.strs.push(json);
      p.nums.push(len);
      return 1 + varintLen(len) + len;
    }
    case 'stringlist': {
      if (v === null) return 0;
      if (!Array.isArray(v)) return fail('string list', v);
      let n = 0;
      for (const s of v as unknown[]) {
        const len = utf8Len(str(s));
        p.nums.push(len);
        n += 1 + varintLen(len) + len;
      }
      return n;
    }
    default:
      return fail(t.name, v);
  }
}

/** Writes what sizeMessage planned, in the same order. */
export class Writer {
  pos: number;
  private ni = 0;
  private si = 0;
  constructor(readonly buf: Buffer, private readonly plan: Plan, start: number) {
    this.pos = start;
  }

  private num(): number {
    return this.plan.nums[this.ni++] ?? 0;
  }

  private varint(n: number): void {
    this.pos = writeVarint(this.buf, this.pos, n);
  }

  private string(s: string, len: number): void {
    this.varint(len);
    this.pos = writeUtf8(this.buf, this.pos, s, len);
  }

  message(v: unknown, t: MessageType): void {
    if (isUnion(t.special)) this.fields(unionFields(t.special, v), t);
    else if (t.special !== undefined) this.special(v, t);
    else this.fields(v, t);
  }

  private fields(v: unknown, t: MessageType): void {
    if (!isObj(v)) return;
    for (const f of t.fields) {
      const fv = f.inline ? v : v[f.json];
      if (fv === undefined) continue;
      if (fv === null) {
        if (!f.repeated && !f.map && nullAsEmpty(f)) {
          this.varint(f.tag);
          this.buf[this.pos++] = 0;
        }
        continue;
      }
      if (f.map) {
        const value = f.value as FieldInfo;
        const m = fv as Obj;
        for (const k of goMapKeys(m)) {
          const ev = m[k];
          if (ev === undefined) continue;
          this.varint(f.tag);
          this.varint(this.num());
          this.buf[this.pos++] = 0x0a;
          this.string(k, this.num());
          this.value(value, ev);
        }
      } else if (f.repeated) {
        for (const el of fv as unknown[]) this.value(f, el);
      } else {
        this.value(f, fv);
      }
    }
  }

  private value(f: FieldInfo, v: unknown): void {
    this.varint(f.tag);
    switch (f.type) {
      case T_STRING:
        this.string(v === null ? '' : (v as string), this.num());
        return;
      case T_BYTES: {
        const b = this.plan.strs[this.si++] as Buffer;
        this.varint(b.length);
        this.pos += b.copy(this.buf, this.pos);
        return;
      }
      case T_BOOL:
        this.buf[this.pos++] = v === true ? 1 : 0;
        return;
      case T_DOUBLE:
        this.pos = this.buf.writeDoubleLE(v === null ? 0 : (v as number), this.pos);
        return;
      case T_INT32:
      case T_INT64:
        this.varint(v === null ? 0 : (v as number));
        return;
      case T_MESSAGE:
        this.varint(this.num());
        this.message(v, f.message as MessageType);
    }
  }

  private special(v: unknown, t: MessageType): void {
    switch (t.special) {
      case 'time':
        if (v === null) return;
        this.buf[this.pos++] = 0x08;
        this.varint(this.num());
        this.buf[this.pos++] = 0x10;
        this.buf[this.pos++] = 0;
        return;
      case 'microtime':
        if (v === null) return;
        this.buf[this.pos++] = 0x08;
        this.varint(this.num());
        this.buf[this.pos++] = 0x10;
        this.varint(this.num());
        return;
      case 'duration':
        this.buf[this.pos++] = 0x08;
        this.varint(this.num());
        return;
      case 'quantity':
        this.buf[this.pos++] = 0x0a;
        this.string(quantityString(v), this.num());
        return;
      case 'intorstring': {
        const isInt = typeof v === 'number';
        this.buf[this.pos++] = 0x08;
        this.buf[this.pos++] = isInt ? 0 : 1;
        this.buf[this.pos++] = 0x10;
        this.varint(isInt ? v : 0);
        this.buf[this.pos++] = 0x1a;
        if (isInt) this.buf[this.pos++] = 0;
        else this.string(v as string, this.num());
        return;
      }
      case 'raw':
      case 'json':
      case 'fieldsv1':
        if (v === null) return;
        this.buf[this.pos++] = 0x0a;
        this.string(this.plan.strs[this.si++] as string, this.num());
        return;
      case 'stringlist':
        if (v === null) return;
        for (const s of v as (string | null)[]) {
          this.buf[this.pos++] = 0x0a;
          this.string(s ?? '', this.num());
        }
        return;
      default:
        return;
    }
  }
}
