// Protobuf bytes → the JSON form kube's JSON encoder would print for the decoded Go object:
// zero values of non-pointer omitempty fields are dropped, nil non-omitempty slices and maps
// print as null, Time/MicroTime/Quantity/IntOrString/RawExtension/FieldsV1 take their JSON forms.
// Counterpart of k8s.io/apimachinery/pkg/runtime/serializer/protobuf (decoding, through the
// generated Unmarshal methods).
import { goOrdered } from './go-order.ts';
import { messageForKind, T_BOOL, T_BYTES, T_DOUBLE, T_INT32, T_INT64, T_STRING, type FieldInfo, type MessageType } from './descriptors.ts';
import { isUnion, unionJSON } from './schema-unions.ts';
import { MAX_DECODE_DEPTH, tooDeepMessage } from '../../../json-depth.ts';
import { readUtf8, Reader, WireError } from './wire.ts';
import { formatDuration, formatMicroTime, formatTime } from './well-known.ts';
import { setKey } from '../../../patch/json-value.ts';

type Obj = Record<string, unknown>;

/** `k8s\0`: the magic that starts every kube protobuf object. */
export const PROTOBUF_PREFIX = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

function hasPrefix(buf: Buffer, start: number, end: number): boolean {
  return end - start >= 4 && buf[start] === 0x6b && buf[start + 1] === 0x38 && buf[start + 2] === 0x73 && buf[start + 3] === 0;
}

const isZero = (v: unknown): boolean => v === '' || v === 0 || v === false;

/** Decodes the fields of message `t` from r.pos to end (into `into`, if given). */
export function decodeMessage(r: Reader, end: number, t: MessageType, into?: Obj): unknown {
  // A union is no JSON level of its own (it prints as its member): only its schemas count.
  if (isUnion(t.special)) return unionJSON(t.special, decodeFields(r, end, t, undefined, 0));
  if (t.special !== undefined) return decodeSpecial(r, end, t);
  return decodeFields(r, end, t, into);
}

function decodeFields(r: Reader, end: number, t: MessageType, into?: Obj, level = 1): Obj {
  // Recursive message types (JSONSchemaProps) nest as deep as the bytes allow: bounded here.
  r.depth += level;
  if (r.depth > MAX_DECODE_DEPTH) throw new WireError(tooDeepMessage('the object'));
  const obj: Obj = into ?? {};
  while (r.pos < end) {
    const tag = r.varint(end);
    const f = t.byNumber[tag >>> 3];
    const wt = tag & 7;
    if (f === undefined) {
      r.skip(wt, end);
      continue;
    }
    if (wt !== f.wireType) {
      if (f.repeated && wt === 2 && f.wireType === 0) {
        readPacked(r, end, f, obj);
        continue;
      }
      throw new WireError(`wrong wire type ${wt} for field ${f.json} of ${t.name}`);
    }
    if (f.map) {
      readMapEntry(r, end, f, obj);
    } else if (f.repeated) {
      const arr = obj[f.json];
      const v = readValue(r, end, f);
      if (Array.isArray(arr)) arr.push(v);
      else obj[f.json] = [v];
    } else if (f.inline) {
      const e = r.lengthEnd(end);
      decodeMessage(r, e, f.message as MessageType, obj);
      r.pos = e;
    } else {
      const v = readValue(r, end, f);
      if ((f.omitZero && isZero(v)) || (f.omitZeroStruct && v === null)) {
        if (obj[f.json] !== undefined) delete obj[f.json];
      } else {
        obj[f.json] = v;
      }
    }
  }
  for (const f of t.nullIfAbsent) if (obj[f.json] === undefined) obj[f.json] = null;
  r.depth -= level;
  // An embedded struct's fields are ordered with its parent's.
  return into === undefined ? goOrdered(obj, t) : obj;
}

function readValue(r: Reader, end: number, f: FieldInfo): unknown {
  switch (f.type) {
    case T_STRING: {
      const e = r.lengthEnd(end);
      const s = readUtf8(r.buf, r.pos, e);
      r.pos = e;
      return s;
    }
    case T_BYTES: {
      const e = r.lengthEnd(end);
      const s = r.buf.toString('base64', r.pos, e);
      r.pos = e;
      return s;
    }
    case T_BOOL:
      return r.varint(end) !== 0;
    case T_DOUBLE: {
      if (r.pos + 8 > end) throw new WireError('unexpected end of data');
      const d = r.buf.readDoubleLE(r.pos);
      r.pos += 8;
      return d;
    }
    case T_INT32:
      return r.varint(end) | 0;
    case T_INT64:
      return r.varint(end);
    default: {
      const e = r.lengthEnd(end);
      const v = decodeMessage(r, e, f.message as MessageType);
      r.pos = e;
      return v;
    }
  }
}

function readPacked(r: Reader, end: number, f: FieldInfo, obj: Obj): void {
  const e = r.lengthEnd(end);
  let arr = obj[f.json];
  if (!Array.isArray(arr)) obj[f.json] = arr = [];
  while (r.pos < e) (arr as unknown[]).push(readValue(r, e, f));
}

function zeroOf(f: FieldInfo): unknown {
  switch (f.type) {
    case T_STRING:
    case T_BYTES: return '';
    case T_BOOL: return false;
    case T_DOUBLE:
    case T_INT32:
    case T_INT64: return 0;
    default: return decodeMessage(new Reader(Buffer.alloc(0)), 0, f.message as MessageType);
  }
}

function readMapEntry(r: Reader, end: number, f: FieldInfo, obj: Obj): void {
  const e = r.lengthEnd(end);
  const vf = f.value as FieldInfo;
  let key = '';
  let value: unknown;
  while (r.pos < e) {
    const tag = r.varint(e);
    if (tag === 0x0a) {
      const ke = r.lengthEnd(e);
      key = readUtf8(r.buf, r.pos, ke);
      r.pos = ke;
    } else if (tag === ((2 << 3) | vf.wireType)) {
      value = readValue(r, e, vf);
    } else {
      r.skip(tag & 7, e);
    }
  }
  let m = obj[f.json];
  if (typeof m !== 'object' || m === null) obj[f.json] = m = {};
  // Map keys are data: "__proto__" must become a member, not the map's prototype.
  setKey(m as Obj, key, value === undefined ? zeroOf(vf) : value);
}

function bytesField(r: Reader, end: number): { start: number; end: number } | undefined {
  let found: { start: number; end: number } | undefined;
  while (r.pos < end) {
    const tag = r.varint(end);
    if (tag === 0x0a) {
      const e = r.lengthEnd(end);
      found = { start: r.pos, end: e };
      r.pos = e;
    } else {
      r.skip(tag & 7, end);
    }
  }
  return found;
}

function parseJSON(r: Reader, start: number, end: number, what: string): unknown {
  try {
    return JSON.parse(r.buf.toString('utf8', start, end)) as unknown;
  } catch (err) {
    throw new WireError(`invalid JSON in ${what}: ${(err as Error).message}`);
  }
}

function decodeSpecial(r: Reader, end: number, t: MessageType): unknown {
  const start = r.pos;
  switch (t.special) {
    case 'time':
    case 'microtime':
    case 'duration':
    case 'intorstring': {
      let a = 0;
      let b = 0;
      let s = '';
      while (r.pos < end) {
        const tag = r.varint(end);
        if (tag === 0x08) a = r.varint(end);
        else if (tag === 0x10) b = r.varint(end) | 0;
        else if (tag === 0x1a) s = readValue(r, end, STRING_FIELD) as string;
        else r.skip(tag & 7, end);
      }
      if (t.special === 'intorstring') return a === 1 ? s : b;
      if (t.special === 'duration') return formatDuration(a);
      if (end === start) return null; // Go's zero time, which its JSON prints as null
      return t.special === 'time' ? formatTime(a) : formatMicroTime(a, b);
    }
    case 'quantity': {
      const f = bytesField(r, end);
      return f === undefined ? '0' : r.buf.toString('utf8', f.start, f.end);
    }
    case 'raw': {
      const f = bytesField(r, end);
      if (f === undefined || f.start === f.end) return null;
      if (hasPrefix(r.buf, f.start, f.end)) return decodeEnvelope(r.buf, f.start, f.end).obj;
      return parseJSON(r, f.start, f.end, 'RawExtension');
    }
    case 'fieldsv1':
    case 'json': {
      // apiextensions' JSON holds any JSON value's bytes; none prints as null.
      const f = bytesField(r, end);
      if (f === undefined || f.start === f.end) return null;
      return parseJSON(r, f.start, f.end, t.special === 'json' ? 'JSON' : 'FieldsV1');
    }
    case 'stringlist': {
      const items: string[] = [];
      while (r.pos < end) {
        const tag = r.varint(end);
        if (tag === 0x0a) items.push(readValue(r, end, STRING_FIELD) as string);
        else r.skip(tag & 7, end);
      }
      return items.length === 0 ? null : items;
    }
    default:
      throw new WireError(`cannot decode ${t.name}`);
  }
}

const STRING_FIELD = { type: T_STRING } as FieldInfo;

export interface Decoded {
  apiVersion: string;
  kind: string;
  obj: Record<string, unknown>;
}

/** Decodes `k8s\0` + runtime.Unknown{typeMeta, raw, contentEncoding, contentType} in buf[start, end). */
export function decodeEnvelope(buf: Buffer, start: number, end: number): Decoded {
  if (end - start === 0) throw new WireError('empty data');
  if (!hasPrefix(buf, start, end)) {
    throw new WireError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  }
  if (end - start === 4) throw new WireError('empty body');
  const r = new Reader(buf, start + 4);
  let apiVersion = '';
  let kind = '';
  let raw: { start: number; end: number } | undefined;
  while (r.pos < end) {
    const tag = r.varint(end);
    if (tag === 0x0a) {
      const e = r.lengthEnd(end);
      while (r.pos < e) {
        const t = r.varint(e);
        if (t === 0x0a || t === 0x12) {
          const v = readValue(r, e, STRING_FIELD) as string;
          if (t === 0x0a) apiVersion = v;
          else kind = v;
        } else {
          r.skip(t & 7, e);
        }
      }
    } else if (tag === 0x12) {
      const e = r.lengthEnd(end);
      raw = { start: r.pos, end: e };
      r.pos = e;
    } else {
      r.skip(tag & 7, end); // contentEncoding, contentType: kube sends them empty
    }
  }
  const typeMeta = `runtime.TypeMeta{APIVersion:${JSON.stringify(apiVersion)}, Kind:${JSON.stringify(kind)}}`;
  if (kind === '') throw new WireError(`Object 'Kind' is missing in '${typeMeta}'`);
  // A meta kind may come without apiVersion (discovery's stripVersion encoder): decoded into its
  // known type, as a client decoding into a typed object does.
  const msg = messageForKind(apiVersion, kind);
  if (apiVersion === '' && msg === undefined) throw new WireError(`Object 'apiVersion' is missing in '${typeMeta}'`);
  if (msg === undefined) throw new WireError(`no kind "${kind}" is registered for version "${apiVersion}"`);
  const obj: Obj = apiVersion === '' ? { kind } : { kind, apiVersion };
  if (raw !== undefined) {
    const rr = new Reader(buf, raw.start);
    decodeMessage(rr, raw.end, msg, obj);
  } else {
    for (const f of msg.nullIfAbsent) obj[f.json] = null;
  }
  return { apiVersion, kind, obj: goOrdered(obj, msg, true) };
}

export { WireError };
