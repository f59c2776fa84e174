// Builders for the hostile request bodies of issue 9 (the e2e corpus and the bench's hostile
// phase). Each is built as text, in linear time, so that the caller never needs a deep recursion
// or a large object graph.
// No Go counterpart: test and bench helpers.
import { encodeProtobuf } from '../runtime/serializer/protobuf/index.ts';

/** The group of the corpus's custom resource (kind Blob, plural blobs, preserve-unknown-fields). */
export const CR_GROUP = 'hostile.example.com';

/** `[[[…]]]`, n levels: 2n bytes, so even 1M levels stay under kube's 3 MiB body limit. */
export const deepArray = (n: number): string => '['.repeat(n) + ']'.repeat(n);

/** `{"a":{"a":…leaf…}}`, n levels. */
export const deepObject = (n: number, leaf = '1'): string => '{"a":'.repeat(n) + leaf + '}'.repeat(n);

/** A ConfigMap as JSON text; `extra` is spliced in raw (e.g. `"x":[[[…]]]`). */
export function configMapJSON(name: string, data: string = '{}', extra?: string): string {
  return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":${data}${extra === undefined ? '' : `,${extra}`}}`;
}

/** A Blob custom resource whose `spec` is the given raw JSON. */
export function blobJSON(name: string, spec: string): string {
  return `{"apiVersion":"${CR_GROUP}/v1","kind":"Blob","metadata":{"name":"${name}"},"spec":${spec}}`;
}

/** A managedFields fieldsV1 set nested n levels: {"f:a":{".":{},"f:a":{…}}}. */
export function deepFieldsV1(n: number): string {
  return '{"f:a":' + '{".":{},"f:a":'.repeat(n - 1) + '{".":{}}' + '}'.repeat(n - 1) + '}';
}

/** A ConfigMap created with a user-supplied managedFields entry whose fieldsV1 is n deep. */
export function configMapWithDeepManagedFields(name: string, n: number): string {
  const entry = `{"manager":"deep","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":${deepFieldsV1(n)}}`;
  return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}","managedFields":[${entry}]},"data":{"a":"b"}}`;
}

/** `{"k00000":"v",…}` with n keys: 100k keys are about 1.1 MB of body and 700 KB of data (under 1 MiB). */
export function manyKeysJSON(n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`"k${String(i).padStart(5, '0')}":"v"`);
  return `{${parts.join(',')}}`;
}

export const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'] as const;

/** Data whose keys are the names of Object.prototype's members, as JSON text (own keys, not a prototype). */
export const protoKeysJSON = (): string => `{${PROTO_KEYS.map((k) => `"${k}":"${k}-value"`).join(',')}}`;

/** The same data as a plain record: JSON.parse makes `__proto__` an own property. */
export const protoKeysData = (): Record<string, string> => JSON.parse(protoKeysJSON()) as Record<string, string>;

/** A ConfigMap in kube's protobuf envelope; the data object comes from JSON text so that `__proto__` stays data. */
export function configMapProtobuf(name: string, dataJSON: string): Buffer {
  const obj = JSON.parse(configMapJSON(name, dataJSON)) as Record<string, unknown>;
  return encodeProtobuf(obj);
}

/** JSON patch of `count` copy operations from `from` to fresh keys under /data. */
export function copyOps(from: string, count: number): string {
  const ops: string[] = [];
  for (let i = 0; i < count; i++) ops.push(`{"op":"copy","from":"${from}","path":"/data/c${i}"}`);
  return `[${ops.join(',')}]`;
}

/** JSON patch of n `add` operations of small keys. */
export function addOps(n: number): string {
  const ops: string[] = [];
  for (let i = 0; i < n; i++) ops.push(`{"op":"add","path":"/data/a${i}","value":"v"}`);
  return `[${ops.join(',')}]`;
}

/** A label selector of n terms (`k0=v,k1=v,…`): 10k terms are about 80 KB of query. */
export function labelSelector(n: number): string {
  const terms: string[] = [];
  for (let i = 0; i < n; i++) terms.push(`k${i}=v`);
  return terms.join(',');
}
