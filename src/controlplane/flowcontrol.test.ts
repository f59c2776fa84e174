import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { ensureUpdate } from './flowcontrol.ts';

const A = 'apf.kubernetes.io/autoupdate-spec';
const bootstrap = { metadata: { name: 'x' }, spec: { a: 1, b: [1, 2] } };
const stored = (spec: object, generation: number, annotation?: string): KubeObject & { spec?: unknown } =>
  ({ metadata: { name: 'x', generation, ...(annotation === undefined ? {} : { annotations: { [A]: annotation } }) }, spec });

describe('ensureUpdate (the config producer strategies)', () => {
  const cases = [
    { name: 'suggested, annotation true, spec changed: restored', cur: stored({ a: 2 }, 2, 'true'), mandatory: false, want: { spec: bootstrap.spec, annotation: 'true', generation: 3 } },
    { name: 'suggested, annotation false: left alone', cur: stored({ a: 2 }, 2, 'false'), mandatory: false, want: undefined },
    { name: 'suggested, no annotation, generation 1: restored and annotated true', cur: stored({ a: 2 }, 1), mandatory: false,
      want: { spec: bootstrap.spec, annotation: 'true', generation: 2 } },
    { name: 'suggested, no annotation, edited (generation 2): annotated false, spec kept', cur: stored({ a: 2 }, 2), mandatory: false,
      want: { spec: { a: 2 }, annotation: 'false', generation: 2 } },
    { name: 'suggested, an annotation that is no boolean, generation 1: annotated true', cur: stored(bootstrap.spec, 1, 'maybe'), mandatory: false,
      want: { spec: bootstrap.spec, annotation: 'true', generation: 1 } },
    { name: 'mandatory, annotation false: restored and annotated true', cur: stored({ a: 2 }, 5, 'false'), mandatory: true,
      want: { spec: bootstrap.spec, annotation: 'true', generation: 6 } },
    { name: 'up to date, keys in another order: nothing to write', cur: stored({ b: [1, 2], a: 1 }, 1, 'true'), mandatory: true, want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = ensureUpdate(c.cur, bootstrap, c.mandatory);
      assert.deepEqual(got === undefined ? undefined : { spec: got.spec, annotation: got.metadata.annotations?.[A], generation: got.metadata.generation }, c.want);
    });
  }
});
