// convertToVersion of shared objects: the watch cache hands out frozen objects, which every
// version of a multi-version resource must convert without changing them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../meta/types.ts';
import { Scheme } from './scheme.ts';

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

function newScheme(): Scheme {
  const s = new Scheme();
  s.addKnownKinds({ group: 'g', version: 'v1' }, ['Same', 'Moved']);
  s.addKnownKinds({ group: 'g', version: 'v1beta1' }, ['Same', 'Moved']);
  s.setVersionPriority('g', ['v1', 'v1beta1']);
  // An in-place conversion, as the resource.k8s.io ones are: v1beta1 keeps spec.x under spec.old.
  const moveIn = (o: KubeObject): KubeObject => {
    const spec = (o as unknown as { spec: Record<string, unknown> }).spec;
    spec['x'] = spec['old'];
    delete spec['old'];
    return o;
  };
  const moveOut = (o: KubeObject): KubeObject => {
    const spec = (o as unknown as { spec: Record<string, unknown> }).spec;
    spec['old'] = spec['x'];
    delete spec['x'];
    return o;
  };
  s.addConversion({ group: 'g', version: 'v1beta1', kind: 'Moved' }, moveIn, moveOut);
  return s;
}

describe('Scheme.convertToVersion', () => {
  const cases = [
    { name: 'identical shapes', obj: { apiVersion: 'g/v1', kind: 'Same', metadata: { name: 'a' }, spec: { x: 1 } },
      want: { apiVersion: 'g/v1beta1', kind: 'Same', metadata: { name: 'a' }, spec: { x: 1 } } },
    { name: 'a conversion function that changes its input', obj: { apiVersion: 'g/v1', kind: 'Moved', metadata: { name: 'a' }, spec: { x: 1 } },
      want: { apiVersion: 'g/v1beta1', kind: 'Moved', metadata: { name: 'a' }, spec: { old: 1 } } },
  ];
  for (const c of cases) {
    it(`converts a frozen (watch-cached) object without changing it: ${c.name}`, () => {
      const obj = deepFreeze(structuredClone(c.obj) as KubeObject);
      const out = newScheme().convertToVersion(obj, { group: 'g', version: 'v1beta1' });
      assert.deepEqual(out, c.want);
      assert.deepEqual(obj, c.obj);
    });
  }
});
