// A codec that stores objects as plain JSON, for tests and tools that need no versioning; it
// reads any encoding a value may be stored in (value-codec.ts).
// Counterpart of k8s.io/apimachinery/pkg/runtime (Codec), reduced to plain JSON.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { Codec } from './interfaces.ts';
import { decodeValue, encodeValue } from './value-codec.ts';

export const jsonCodec: Codec = {
  encode: (obj: KubeObject): string => encodeValue(obj, 'application/json'),
  decode: decodeValue,
};
