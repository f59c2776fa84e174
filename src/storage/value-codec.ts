// The bytes an object becomes in storage, and back: kube's storage serializer. Built-in kinds are
// written as `k8s\0` + runtime.Unknown (protobuf) by default, custom resources as JSON; a read
// recognizes whatever kube (or an earlier kapi build) may have written: protobuf, JSON or YAML.
// Values are byte strings (see backend.ts KeyValue.value).
// Counterpart of k8s.io/apiserver/pkg/server/storage (the storage codec: a recognizer decoder
// over protobuf, JSON and YAML, and an encoder for --storage-media-type).
import { newUnknownError, StatusError } from '../apimachinery/errors/status-error.ts';
import { stringifyJSON } from '../apimachinery/json-depth.ts';
import { isKubeObject, type KubeObject } from '../apimachinery/meta/types.ts';
import { jsonSyntaxError } from '../apimachinery/fieldvalidation/index.ts';
import { yamlToJSON } from '../apimachinery/fieldvalidation/yaml.ts';
import { canEncode, decodeProtobuf, encodeProtobuf, PROTOBUF_MEDIA_TYPE } from '../apimachinery/runtime/serializer/protobuf/index.ts';
import { messageForKind } from '../apimachinery/runtime/serializer/protobuf/descriptors.ts';
import { goOrderedDeep } from '../apimachinery/runtime/serializer/protobuf/go-order.ts';
import { encodeYAML } from '../apimachinery/runtime/serializer/yaml.ts';
import type { Codec } from './interfaces.ts';

export type StorageMediaType = 'application/json' | 'application/yaml' | typeof PROTOBUF_MEDIA_TYPE;

export const STORAGE_MEDIA_TYPES: readonly StorageMediaType[] = ['application/json', 'application/yaml', PROTOBUF_MEDIA_TYPE];

export function isStorageMediaType(s: string): s is StorageMediaType {
  return (STORAGE_MEDIA_TYPES as readonly string[]).includes(s);
}

/** kube-apiserver's default --storage-media-type. */
export const DEFAULT_STORAGE_MEDIA_TYPE: StorageMediaType = PROTOBUF_MEDIA_TYPE;

/** The protobuf envelope's magic as the first chars of a byte string. */
const PROTOBUF_MAGIC = 'k8s\u0000';

/** A JS string's UTF-8 bytes, as a byte string. */
export function utf8Bytes(s: string): string {
  // ASCII is its own UTF-8: most stored JSON is, and needs no copy.
  return /^[\x00-\x7f]*$/.test(s) ? s : Buffer.from(s, 'utf8').toString('latin1');
}

/** The text whose UTF-8 bytes a byte string holds. */
export function fromUtf8Bytes(b: string): string {
  return /^[\x00-\x7f]*$/.test(b) ? b : Buffer.from(b, 'latin1').toString('utf8');
}

/**
 * Encodes an object (apiVersion and kind set, in its storage version) as `mediaType`. Kinds
 * without a protobuf message (custom resources) are written as JSON, as kube does for them.
 */
export function encodeValue(obj: KubeObject, mediaType: StorageMediaType): string {
  if (mediaType === PROTOBUF_MEDIA_TYPE && canEncode(obj.apiVersion ?? '', obj.kind ?? '')) {
    const fields: Record<string, unknown> = { ...obj };
    return encodeProtobuf(fields).toString('latin1');
  }
  // Go's encoder writes a built-in kind in its field order: the bytes of an unchanged object are
  // then the same however it was built (an update that changes nothing writes nothing).
  const msg = messageForKind(obj.apiVersion ?? '', obj.kind ?? '');
  const ordered = msg === undefined ? obj : goOrderedDeep(structuredClone(obj), msg, true);
  if (mediaType === 'application/yaml') return utf8Bytes(encodeYAML(ordered));
  return utf8Bytes(stringifyJSON(ordered));
}

/** True when the stored bytes are a protobuf envelope. */
export function isProtobufValue(data: string): boolean {
  return data.startsWith(PROTOBUF_MAGIC);
}

/**
 * Decodes stored bytes in any encoding kube writes: protobuf (`k8s\0`), JSON, or YAML. Throws a
 * StatusError as kube answers for a value it cannot decode (500, no reason, the decoder's text:
 * "proto: illegal wireType 7"), for that object only.
 */
export function decodeValue(data: string): KubeObject {
  let v: unknown;
  try {
    v = decodeAny(data);
  } catch (err) {
    throw newUnknownError(err instanceof StatusError ? err.status.message ?? '' : err instanceof Error ? err.message : String(err));
  }
  if (!isKubeObject(v)) throw newUnknownError('stored value is not an object with metadata');
  return v;
}

function decodeAny(data: string): unknown {
  if (isProtobufValue(data)) {
    const d = decodeProtobuf(Buffer.from(data, 'latin1'));
    return { kind: d.kind, apiVersion: d.apiVersion, ...d.obj };
  }
  const text = fromUtf8Bytes(data);
  // A built-in kind stored as JSON reads back in Go's key order, as kube's typed decode gives it.
  return inGoOrder(/\S/.exec(text)?.[0] === '{' ? parseJSONValue(text) : yamlToJSON(text, false).value);
}

/** JSON.parse, failing as kube's json serializer does: it reads the kind first, with Go's words for the syntax error. */
function parseJSONValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const goError = jsonSyntaxError(text);
    if (goError === undefined) throw err;
    throw new Error(`couldn't get version/kind; json parse error: ${goError}`, { cause: err });
  }
}

function inGoOrder(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  const { apiVersion, kind } = o;
  const msg = typeof apiVersion === 'string' && typeof kind === 'string' ? messageForKind(apiVersion, kind) : undefined;
  return msg === undefined ? v : goOrderedDeep(o, msg, true);
}

/** A codec that writes `mediaType` and reads any encoding, without version conversion. */
export function newValueCodec(mediaType: StorageMediaType): Codec {
  return { encode: (obj) => encodeValue(obj, mediaType), decode: decodeValue };
}
