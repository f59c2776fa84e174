import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newSelectionPredicate } from './predicate.ts';
import { parseFieldSelector } from './selector.ts';
import { parseSelector } from '../labels/parser.ts';
import type { KubeObject } from '../meta/types.ts';

const obj = (name: string, labels?: Record<string, string>): KubeObject =>
  ({ metadata: labels === undefined ? { name, namespace: 'ns' } : { name, namespace: 'ns', labels } });
const fieldSet = (o: KubeObject) => ({ 'metadata.name': o.metadata.name ?? '', 'metadata.namespace': o.metadata.namespace ?? '' });

describe('newSelectionPredicate', () => {
  const cases: { name: string; label?: string; field?: string; object: KubeObject; want: boolean }[] = [
    { name: 'no selectors', object: obj('a'), want: true },
    { name: 'label matches', label: 'app=web', object: obj('a', { app: 'web' }), want: true },
    { name: 'label does not match', label: 'app=web', object: obj('a', { app: 'db' }), want: false },
    { name: 'label on object without labels', label: '!app', object: obj('a'), want: true },
    { name: 'field matches', field: 'metadata.name=a', object: obj('a'), want: true },
    { name: 'field does not match', field: 'metadata.name=b', object: obj('a'), want: false },
    { name: 'both must match', label: 'app=web', field: 'metadata.name=b', object: obj('b', { app: 'db' }), want: false },
    { name: 'both match', label: 'app', field: 'metadata.namespace=ns', object: obj('b', { app: 'db' }), want: true },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = newSelectionPredicate(c.label === undefined ? undefined : parseSelector(c.label),
        c.field === undefined ? undefined : parseFieldSelector(c.field), fieldSet);
      assert.equal(p.matches(c.object), c.want);
      assert.equal(p.empty, c.label === undefined && c.field === undefined);
    });
  }
  it('does not compute the field set when only labels select', () => {
    let calls = 0;
    const p = newSelectionPredicate(parseSelector('a'), parseFieldSelector(''), (o) => { calls++; return fieldSet(o); });
    p.matches(obj('x', { a: '' }));
    assert.equal(calls, 0);
  });
});
