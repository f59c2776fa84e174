// Runtime form of the generated protobuf descriptors: messages linked to their field types, with
// the tags precomputed, built on first use of each message. Also maps an apiVersion and kind to
// the message kube serializes that kind as.
// Counterpart of the generated.proto files of k8s.io/api (read at run time).
import { protoDescriptorsJSON } from '../../../../generated/proto-descriptors.gen.ts';

// Field flags, as written by scripts/generate-proto.ts.
const F_REPEATED = 1;
const F_MAP = 2;
const F_OMIT_ZERO = 4;
const F_NULL_IF_ABSENT = 8;
const F_OMIT_ZERO_STRUCT = 16;
const F_INLINE = 32;

/** Scalar kinds on the wire; MESSAGE marks a field holding a message. */
export const T_STRING = 0;
export const T_BOOL = 1;
export const T_INT32 = 2;
export const T_INT64 = 3;
export const T_BYTES = 4;
export const T_MESSAGE = 5;
export const T_DOUBLE = 6; // JSONSchemaProps' maximum, minimum, multipleOf: 8 bytes little-endian
export type ValueType = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/**
 * Messages whose JSON form is not an object of their fields: Go gives these types their own
 * JSON marshalling.
 */
export type Special = 'time' | 'microtime' | 'duration' | 'quantity' | 'intorstring' | 'raw' | 'fieldsv1' | 'stringlist'
  // apiextensions' JSONSchemaProps helpers: JSON (any JSON value, its bytes in `raw`) and the
  // three unions whose JSON form is one of their members (see schema-unions.ts).
  | 'json' | 'orarray' | 'orbool' | 'orstringarray';

const SPECIALS: Readonly<Record<string, Special>> = {
  'k8s.io.apimachinery.pkg.apis.meta.v1.Time': 'time',
  'k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime': 'microtime',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Duration': 'duration',
  'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1': 'fieldsv1',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Verbs': 'stringlist',
  'k8s.io.apimachinery.pkg.api.resource.Quantity': 'quantity',
  'k8s.io.apimachinery.pkg.api.resource.QuantityValue': 'quantity',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'intorstring',
  'k8s.io.apimachinery.pkg.runtime.RawExtension': 'raw',
};

export interface FieldInfo {
  readonly json: string;
  readonly no: number;
  readonly type: ValueType;
  /** The message type, when type is T_MESSAGE. */
  readonly message: MessageType | undefined;
  readonly repeated: boolean;
  /** map<string, V>: `value` describes V (as field 2 of the entry). */
  readonly map: boolean;
  readonly value: FieldInfo | undefined;
  readonly omitZero: boolean;
  readonly nullIfAbsent: boolean;
  readonly omitZeroStruct: boolean;
  /** A Go embedded struct: its fields are the parent's in JSON. */
  readonly inline: boolean;
  /** (no << 3) | wire type, and its varint length. */
  readonly tag: number;
  readonly tagLen: number;
  readonly wireType: number;
}

export interface MessageType {
  readonly name: string;
  readonly special: Special | undefined;
  /** Sorted by field number. Filled in right after creation (messages may refer to each other). */
  readonly fields: FieldInfo[];
  readonly byNumber: (FieldInfo | undefined)[];
  readonly nullIfAbsent: FieldInfo[];
  /** The JSON names of its fields in Go declaration order, where that is not the field-number order. */
  readonly goOrder: readonly string[] | undefined;
}

type FieldTuple = [string, number, string, number];
interface Descriptors {
  readonly messages: Readonly<Record<string, FieldTuple[]>>;
  readonly groupVersions: Readonly<Record<string, string>>;
  readonly metaKinds: readonly string[];
  readonly goOrder?: Readonly<Record<string, readonly string[]>>;
}

const META_V1 = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const META_V1BETA1 = 'k8s.io.apimachinery.pkg.apis.meta.v1beta1';
const SCALAR_TYPES: Readonly<Record<string, ValueType>> = {
  string: T_STRING, bool: T_BOOL, int32: T_INT32, int64: T_INT64, bytes: T_BYTES, double: T_DOUBLE,
};

let descriptors: Descriptors | undefined;
let metaKinds: ReadonlySet<string> = new Set();
const built = new Map<string, MessageType>();
const byGVK = new Map<string, MessageType>();

function load(): Descriptors {
  if (descriptors === undefined) {
    descriptors = JSON.parse(protoDescriptorsJSON) as Descriptors;
    metaKinds = new Set(descriptors.metaKinds);
  }
  return descriptors;
}

const varintLen = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : 4);

function makeField(json: string, no: number, typeName: string, flags: number, asMapValue: boolean): FieldInfo {
  const scalar = SCALAR_TYPES[typeName];
  const type: ValueType = scalar ?? T_MESSAGE;
  const isMap = !asMapValue && (flags & F_MAP) !== 0;
  const wireType = isMap || type === T_STRING || type === T_BYTES || type === T_MESSAGE ? 2 : type === T_DOUBLE ? 1 : 0;
  const tag = (no << 3) | wireType;
  return {
    json, no, type,
    message: isMap || scalar !== undefined ? undefined : messageByName(typeName),
    repeated: !asMapValue && (flags & F_REPEATED) !== 0,
    map: isMap,
    value: isMap ? makeField('', 2, typeName, 0, true) : undefined,
    omitZero: (flags & F_OMIT_ZERO) !== 0,
    nullIfAbsent: (flags & F_NULL_IF_ABSENT) !== 0,
    omitZeroStruct: (flags & F_OMIT_ZERO_STRUCT) !== 0,
    inline: (flags & F_INLINE) !== 0,
    tag, tagLen: varintLen(tag), wireType,
  };
}

/** The message with that fully qualified name ("k8s.io.api.core.v1.Pod"), or undefined. */
export function messageByName(name: string): MessageType | undefined {
  const have = built.get(name);
  if (have !== undefined) return have;
  const tuples = load().messages[name];
  if (tuples === undefined) return undefined;
  const special = SPECIALS[name] ?? stringListSpecial(name) ?? schemaSpecial(name);
  const msg: MessageType = { name, special, fields: [], byNumber: [], nullIfAbsent: [], goOrder: load().goOrder?.[name] };
  built.set(name, msg);
  for (const [json, no, typeName, flags] of tuples) {
    const f = makeField(json, no, typeName, flags, false);
    msg.fields.push(f);
    msg.byNumber[no] = f;
    if (f.nullIfAbsent) msg.nullIfAbsent.push(f);
  }
  return msg;
}

// authentication's (and its copies') ExtraValue is a named []string in Go, wrapped for protobuf.
function stringListSpecial(name: string): Special | undefined {
  return name.startsWith('k8s.io.api.') && name.endsWith('.ExtraValue') ? 'stringlist' : undefined;
}

const APIEXTENSIONS = /^k8s\.io\.apiextensions_apiserver\.pkg\.apis\.apiextensions\.v1(?:beta1)?\.(\w+)$/;
const SCHEMA_SPECIALS: Readonly<Record<string, Special>> = {
  JSON: 'json', JSONSchemaPropsOrArray: 'orarray', JSONSchemaPropsOrBool: 'orbool', JSONSchemaPropsOrStringArray: 'orstringarray',
};

// The same four helper types exist in apiextensions v1 and v1beta1.
function schemaSpecial(name: string): Special | undefined {
  const short = APIEXTENSIONS.exec(name)?.[1];
  return short !== undefined && Object.hasOwn(SCHEMA_SPECIALS, short) ? SCHEMA_SPECIALS[short] : undefined;
}

/**
 * The message kube encodes a kind as: the kind's own message in its group version's proto
 * package, else a meta.k8s.io/v1 kind that every group version serves (Status, DeleteOptions...).
 * Undefined for kinds without a protobuf form (custom resources, meta.k8s.io Table).
 */
export function messageForKind(apiVersion: string, kind: string): MessageType | undefined {
  const key = `${apiVersion}\0${kind}`;
  const have = byGVK.get(key);
  if (have !== undefined) return have;
  const d = load();
  const pkg = d.groupVersions[apiVersion];
  let msg: MessageType | undefined;
  if (pkg !== undefined && kind !== '') {
    msg = messageByName(`${pkg}.${kind}`);
    if (msg === undefined && pkg === META_V1BETA1) msg = messageByName(`${META_V1}.${kind}`);
    if (msg === undefined && metaKinds.has(kind)) msg = messageByName(`${META_V1}.${kind}`);
  } else if (apiVersion === '' && metaKinds.has(kind)) {
    // Discovery's stripVersion encoder writes APIVersions (and core APIResourceList) with no apiVersion.
    msg = messageByName(`${META_V1}.${kind}`);
  }
  // Only kinds that exist are kept: a protobuf body can name any apiVersion and kind, and a
  // cache of misses would keep every such string (up to a body's 3 MiB) for good.
  if (msg !== undefined) byGVK.set(key, msg);
  return msg;
}

/** How many kinds messageForKind keeps (for tests: misses must not be kept). */
export const cachedKindCount = (): number => byGVK.size;
