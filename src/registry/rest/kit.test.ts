import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invalid, type FieldError } from '../../apimachinery/errors/field-errors.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { specStatusStrategy, statusStrategy, subresourceStrategy, type SpecStatusOptions } from './kit.ts';
import type { DeepReadonly, Strategy } from './strategy.ts';

interface Widget extends KubeObject { spec?: { size?: number }; status?: { ready?: boolean } }

const ctx = systemContext('default');
const ro = (w: Widget): DeepReadonly<Widget> => w;
const widget = (size: number, extra: Partial<Widget> = {}): Widget => ({ metadata: { name: 'w', namespace: 'default', generation: 1 }, spec: { size }, ...extra });
const sizeCheck = (w: DeepReadonly<Widget>): FieldError[] => ((w.spec?.size ?? 0) < 0 ? [invalid('spec.size', w.spec?.size, 'must be >= 0')] : []);
const metaCheck = (): FieldError[] => [invalid('metadata.name', 'w', 'bad name')];
const fields = (errs: FieldError[]): string[] => errs.map((e) => e.field);

/** What one update through a strategy leaves: the object and the errors and warnings it got. */
function update(s: Strategy<Widget>, next: Widget, old: Widget): { obj: Widget; errs: string[]; warnings: string[] } {
  const obj = structuredClone(next);
  s.prepareForUpdate(ctx, obj, ro(old));
  return { obj, errs: fields(s.validateUpdate(ctx, ro(obj), ro(old))), warnings: s.warningsOnUpdate?.(ctx, ro(obj), ro(old)) ?? [] };
}

describe('specStatusStrategy', () => {
  const cases: { name: string; opts: SpecStatusOptions<Widget>; next: Widget; old: Widget; want: { errs: string[]; warnings?: string[]; generation?: number; status?: unknown } }[] = [
    { name: 'update runs validate() minus metadata, then validateUpdate',
      opts: { validate: (w) => [...metaCheck(), ...sizeCheck(w)], validateUpdate: () => [invalid('spec', null, 'immutable')] },
      next: widget(-1), old: widget(1), want: { errs: ['spec.size', 'spec'] } },
    { name: 'revalidateOnUpdate false: validateUpdate is the whole check',
      opts: { validate: sizeCheck, revalidateOnUpdate: false, validateUpdate: () => [] }, next: widget(-1), old: widget(1), want: { errs: [] } },
    { name: 'generation grows with the spec and status is kept',
      opts: { validate: sizeCheck, generation: true, hasStatus: true },
      next: widget(2, { status: { ready: true } }), old: widget(1, { status: { ready: false } }), want: { errs: [], generation: 2, status: { ready: false } } },
    { name: 'the prepare hook runs after status and generation are settled',
      opts: { validate: sizeCheck, generation: true, prepareForUpdate: (_c, w) => { w.metadata.generation = (w.metadata.generation ?? 0) * 10; } },
      next: widget(2), old: widget(1), want: { errs: [], generation: 20 } },
    { name: 'normalizeForUpdate runs before the generation is compared: what it drops is no spec change',
      opts: { validate: sizeCheck, generation: true, normalizeForUpdate: (_c, w) => { delete w.spec?.size; } },
      next: widget(2), old: { metadata: { name: 'w', namespace: 'default', generation: 1 }, spec: {} }, want: { errs: [], generation: 1 } },
    { name: 'specOf judges the spec change (here: everything but metadata, so a status change bumps too)',
      opts: { validate: sizeCheck, generation: true, specOf: ({ metadata: _m, ...rest }) => rest },
      next: widget(1, { status: { ready: true } }), old: widget(1), want: { errs: [], generation: 2 } },
    { name: 'warnings are passed on with the object first',
      opts: { validate: sizeCheck, warningsOnUpdate: (w, old) => [`${old.spec?.size ?? 0} -> ${w.spec?.size ?? 0}`] },
      next: widget(2), old: widget(1), want: { errs: [], warnings: ['1 -> 2'] } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = update(specStatusStrategy(c.opts), c.next, c.old);
      assert.deepEqual(got.errs, c.want.errs);
      assert.deepEqual(got.warnings, c.want.warnings ?? []);
      if (c.want.generation !== undefined) assert.equal(got.obj.metadata.generation, c.want.generation);
      if ('status' in c.want) assert.deepEqual(got.obj.status, c.want.status);
    });
  }

  it('defaults: no create on update, unconditional updates, no reset fields; options override them', () => {
    const plain = specStatusStrategy<Widget>({ validate: sizeCheck });
    assert.deepEqual([plain.allowCreateOnUpdate, plain.allowUnconditionalUpdate, plain.resetFields], [false, true, undefined]);
    const custom = specStatusStrategy<Widget>({ validate: sizeCheck, allowCreateOnUpdate: true, allowUnconditionalUpdate: false, resetFields: [['status']] });
    assert.deepEqual([custom.allowCreateOnUpdate, custom.allowUnconditionalUpdate, custom.resetFields], [true, false, [['status']]]);
  });
});

describe('statusStrategy', () => {
  const main = specStatusStrategy<Widget>({ validate: sizeCheck, hasStatus: true, warningsOnUpdate: () => ['from main'] });

  it('keeps the spec as stored, inherits the main warnings, validates with its own check', () => {
    const s = statusStrategy(main, { validate: (w) => (w.status?.ready === true ? [invalid('status.ready', true, 'no')] : []) });
    const got = update(s, widget(5, { status: { ready: true } }), widget(1));
    assert.deepEqual([got.obj.spec, got.obj.status, got.errs, got.warnings], [{ size: 1 }, { ready: true }, ['status.ready'], ['from main']]);
    assert.deepEqual(s.resetFields, [['spec']]);
  });

  it('warningsOnUpdate null drops the main warnings; resetFields and specFields replace the defaults', () => {
    const s = statusStrategy(main, { warningsOnUpdate: null, specFields: ['status'], resetFields: [['status']] });
    const got = update(s, widget(5, { status: { ready: true } }), widget(1, { status: { ready: false } }));
    assert.deepEqual([got.obj.spec, got.obj.status, got.warnings, s.resetFields], [{ size: 5 }, { ready: false }, [], [['status']]]);
  });

  it('resetMetadata keeps labels as stored and names metadata in the reset fields', () => {
    const s = statusStrategy(main, { resetMetadata: {} });
    const old = widget(1, { metadata: { name: 'w', namespace: 'default', labels: { a: '1' } } });
    const got = update(s, widget(1, { metadata: { name: 'w', namespace: 'default', labels: { a: '2' } } }), old);
    assert.deepEqual([got.obj.metadata.labels, s.resetFields], [{ a: '1' }, [['spec'], ['metadata']]]);
  });
});

describe('subresourceStrategy', () => {
  const main = specStatusStrategy<Widget>({ validate: sizeCheck, hasStatus: true, resetFields: [['status']] });

  it('replaces the update with its own preparation and check, keeps create, has no reset fields by default', () => {
    const s = subresourceStrategy(main, {
      prepareForUpdate: (_c, w, old) => { w.spec = { size: (old.spec?.size ?? 0) + (w.spec?.size ?? 0) }; },
      validate: (w) => ((w.spec?.size ?? 0) > 5 ? [invalid('spec.size', w.spec?.size, 'too big')] : []),
    });
    const got = update(s, widget(5, { status: { ready: true } }), widget(1));
    assert.deepEqual([got.obj.spec, got.obj.status, got.errs, s.resetFields, s.prepareForCreate], [{ size: 6 }, { ready: true }, ['spec.size'], undefined, main.prepareForCreate]);
    assert.deepEqual(subresourceStrategy(main, { prepareForUpdate: () => undefined, validate: () => [], resetFields: [['spec']] }).resetFields, [['spec']]);
  });
});
