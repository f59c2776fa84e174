// A codec that stores objects as plain JSON, for tests and tools that need no versioning.
// Counterpart of k8s.io/apimachinery/pkg/runtime (Codec), reduced to plain JSON.
import { stringifyJSON } from '../apimachinery/json-depth.ts';
import { isKubeObject, type KubeObject } from '../apimachinery/meta/types.ts';
import type { Codec } from './interfaces.ts';

export const jsonCodec: Codec = {
  encode: (obj: KubeObject): string => stringifyJSON(obj),
  decode: (data: string): KubeObject => {
    const v: unknown = JSON.parse(data);
    if (!isKubeObject(v)) throw new Error('stored value is not an object with metadata');
    return v;
  },
};
