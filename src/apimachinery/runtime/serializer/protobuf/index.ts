// Kubernetes' protobuf serialization (application/vnd.kubernetes.protobuf), as
// k8s.io/apimachinery/pkg/runtime/serializer/protobuf does it: `k8s\0` + a runtime.Unknown whose
// typeMeta names the kind and whose raw holds the kind's own message. Objects go in and out in
// their JSON form (what kapi stores and serves as JSON).
import { newBadRequest } from '../../../errors/status-error.ts';
import { messageByName, messageForKind, type MessageType } from './descriptors.ts';
export type { MessageType } from './descriptors.ts';
import { decodeEnvelope, decodeMessage, PROTOBUF_PREFIX } from './decode.ts';
import { newPlan, sizeMessage, Writer, type Plan } from './encode.ts';
import { Reader, varintLen, writeVarint } from './wire.ts';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
/** Content-Type of a protobuf watch stream: length-prefixed WatchEvent frames. */
export const PROTOBUF_WATCH_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf;stream=watch';

/** True when apiVersion/kind has a protobuf message (built-in kinds, CRDs and APIServices, meta kinds; not custom resources or Table). */
export function canEncode(apiVersion: string, kind: string): boolean {
  return messageForKind(apiVersion, kind) !== undefined;
}

/**
 * Decodes a protobuf body into its JSON form. Throws a StatusError with reason BadRequest (400)
 * when the data is not `k8s\0` + runtime.Unknown, names no registered kind, or is malformed.
 */
export function decodeProtobuf(buf: Buffer): { apiVersion: string; kind: string; obj: Record<string, unknown> } {
  try {
    return decodeEnvelope(buf, 0, buf.length);
  } catch (err) {
    throw newBadRequest(err instanceof Error ? err.message : String(err));
  }
}

interface EnvelopePlan {
  readonly obj: Record<string, unknown>;
  readonly msg: MessageType;
  readonly plan: Plan;
  readonly apiVersion: string;
  readonly kind: string;
  readonly avLen: number;
  readonly kindLen: number;
  readonly typeMetaLen: number;
  readonly rawLen: number;
  /** Bytes of the whole envelope, prefix included. */
  readonly size: number;
}

/** `extraRaw`: bytes appended to the message after its planned fields (a list's pre-encoded items). */
function planEnvelope(obj: Record<string, unknown>, extraRaw = 0): EnvelopePlan {
  const { apiVersion = '', kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    throw new Error('cannot encode an object without apiVersion and kind as protobuf');
  }
  const msg = messageForKind(apiVersion, kind);
  if (msg === undefined) throw new Error(`no protobuf message for kind "${kind}" in version "${apiVersion}"`);
  const plan = newPlan();
  const rawLen = sizeMessage(obj, msg, plan) + extraRaw;
  const av = Buffer.byteLength(apiVersion);
  const k = Buffer.byteLength(kind);
  const typeMetaLen = 1 + varintLen(av) + av + 1 + varintLen(k) + k;
  // typeMeta, raw, then contentEncoding and contentType, which Go always writes (empty).
  const size = 4 + 1 + varintLen(typeMetaLen) + typeMetaLen + 1 + varintLen(rawLen) + rawLen + 4;
  return { obj, msg, plan, apiVersion, kind, avLen: av, kindLen: k, typeMetaLen, rawLen, size };
}

function writeEnvelope(e: EnvelopePlan, buf: Buffer, start: number, extra?: (buf: Buffer, pos: number) => number): number {
  let pos = start + PROTOBUF_PREFIX.copy(buf, start);
  const av = e.avLen;
  const k = e.kindLen;
  buf[pos++] = 0x0a;
  pos = writeVarint(buf, pos, e.typeMetaLen);
  buf[pos++] = 0x0a;
  pos = writeVarint(buf, pos, av);
  pos += buf.write(e.apiVersion, pos, av, 'utf8');
  buf[pos++] = 0x12;
  pos = writeVarint(buf, pos, k);
  pos += buf.write(e.kind, pos, k, 'utf8');
  buf[pos++] = 0x12;
  pos = writeVarint(buf, pos, e.rawLen);
  const w = new Writer(buf, e.plan, pos);
  w.message(e.obj, e.msg);
  pos = extra === undefined ? w.pos : extra(buf, w.pos);
  buf[pos++] = 0x1a;
  buf[pos++] = 0;
  buf[pos++] = 0x22;
  buf[pos++] = 0;
  return pos;
}

/**
 * Encodes an object in its JSON form (apiVersion and kind set) as `k8s\0` + runtime.Unknown.
 * Throws (a server bug, not a client error) when the kind has no protobuf message or a field
 * value does not fit its protobuf type; check canEncode first.
 */
export function encodeProtobuf(obj: Record<string, unknown>): Buffer {
  const e = planEnvelope(obj);
  const buf = Buffer.allocUnsafe(e.size);
  const end = writeEnvelope(e, buf, 0);
  if (end !== e.size) throw new Error(`protobuf encoding wrote ${end} bytes, planned ${e.size}`);
  return buf;
}

/**
 * The bytes of `obj` as a message of type `msg` (its envelope's `raw`, or one item of a list), for
 * encodeProtobufList. Throws as encodeProtobuf does.
 */
export function encodeProtobufMessage(obj: Record<string, unknown>, msg: MessageType): Buffer {
  const plan = newPlan();
  const buf = Buffer.allocUnsafe(sizeMessage(obj, msg, plan));
  const w = new Writer(buf, plan, 0);
  w.message(obj, msg);
  if (w.pos !== buf.length) throw new Error(`protobuf encoding wrote ${w.pos} bytes, planned ${buf.length}`);
  return buf;
}

/**
 * The message type of a list kind's items, when a list can be written from its items' bytes:
 * `items` is its last field (every list of kube's: metadata 1, items 2), so the items follow the
 * rest of the message, as Go writes fields in number order. Undefined otherwise.
 */
export function listItemMessage(apiVersion: string, kind: string): MessageType | undefined {
  const fields = messageForKind(apiVersion, kind)?.fields;
  const items = fields?.at(-1);
  return items?.json === 'items' && items.repeated && items.message !== undefined ? items.message : undefined;
}

/**
 * Encode once: a list whose items are already encoded (encodeProtobufMessage with
 * listItemMessage's type), byte for byte what encodeProtobuf writes for the whole list. `head` is
 * the list without its items. Throws as encodeProtobuf does, and when the kind has no listItemMessage.
 */
export function encodeProtobufList(head: Record<string, unknown>, items: readonly Buffer[]): Buffer {
  const { apiVersion, kind } = head;
  const fields = typeof apiVersion === 'string' && typeof kind === 'string' && listItemMessage(apiVersion, kind) !== undefined
    ? messageForKind(apiVersion, kind)?.fields : undefined;
  const field = fields?.at(-1);
  if (field === undefined) throw new Error(`no protobuf list message for kind "${String(kind)}" in version "${String(apiVersion)}"`);
  let itemsLen = 0;
  for (const it of items) itemsLen += field.tagLen + varintLen(it.length) + it.length;
  const rest: Record<string, unknown> = { ...head };
  delete rest.items;
  const e = planEnvelope(rest, itemsLen);
  const buf = Buffer.allocUnsafe(e.size);
  const end = writeEnvelope(e, buf, 0, (b, start) => {
    let pos = start;
    for (const it of items) {
      pos = writeVarint(b, pos, field.tag);
      pos = writeVarint(b, pos, it.length);
      pos += it.copy(b, pos);
    }
    return pos;
  });
  if (end !== e.size) throw new Error(`protobuf encoding wrote ${end} bytes, planned ${e.size}`);
  return buf;
}

/**
 * One frame of a protobuf watch stream: a 4-byte big-endian length, then a metav1.WatchEvent
 * (no prefix of its own) whose object.raw is the object encoded as by encodeProtobuf.
 */
export function encodeWatchEventFrame(type: string, obj: Record<string, unknown>): Buffer {
  const e = planEnvelope(obj);
  const t = Buffer.byteLength(type);
  const objectLen = 1 + varintLen(e.size) + e.size; // RawExtension{raw}
  const eventLen = 1 + varintLen(t) + t + 1 + varintLen(objectLen) + objectLen;
  const buf = Buffer.allocUnsafe(4 + eventLen);
  buf.writeUInt32BE(eventLen, 0);
  let pos = 4;
  buf[pos++] = 0x0a;
  pos = writeVarint(buf, pos, t);
  pos += buf.write(type, pos, t, 'utf8');
  buf[pos++] = 0x12;
  pos = writeVarint(buf, pos, objectLen);
  buf[pos++] = 0x0a;
  pos = writeVarint(buf, pos, e.size);
  pos = writeEnvelope(e, buf, pos);
  if (pos !== buf.length) throw new Error(`protobuf watch frame wrote ${pos} bytes, planned ${buf.length}`);
  return buf;
}

/**
 * Decodes one metav1.WatchEvent message (a frame without its length prefix), the way a client
 * reads a protobuf watch stream. Throws a BadRequest StatusError when malformed.
 */
export function decodeWatchEvent(buf: Buffer): { type: string; object: unknown } {
  const msg = messageByName('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent') as MessageType;
  try {
    const ev = decodeMessage(new Reader(buf), buf.length, msg) as { type?: string; object?: unknown };
    return { type: ev.type ?? '', object: ev.object ?? null };
  } catch (err) {
    throw newBadRequest(err instanceof Error ? err.message : String(err));
  }
}
