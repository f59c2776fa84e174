import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { Event } from '../v1/types.ts';
import { events } from './event.ts';
import { validateEventCreate } from './validation.ts';

const ctx = systemContext('default');
const ev = (extra: Partial<Event>): Event => ({
  metadata: { name: 'web.1', namespace: 'default' },
  involvedObject: { kind: 'Pod', name: 'web', namespace: 'default', uid: 'u1', apiVersion: 'v1', fieldPath: 'spec.containers{app}' },
  reason: 'Pulled', message: 'Pulled image ', type: 'Normal', source: { component: 'kubelet', host: 'node1' },
  firstTimestamp: '2024-01-01T00:00:00Z', lastTimestamp: '2024-01-01T00:01:00Z', count: 3, ...extra,
});

describe('core/v1 events', () => {
  const cases: { name: string; obj: Event; want: string[] }[] = [
    { name: 'valid legacy event', obj: ev({}), want: [] },
    { name: 'involved namespace must match', obj: ev({ involvedObject: { kind: 'Pod', name: 'web', namespace: 'other' } }),
      want: ['involvedObject.namespace: Invalid value: "other": does not match event.namespace'] },
    { name: 'new-style events need reporting fields (core/v1 names the field reportingComponent)', obj: ev({ eventTime: '2024-01-01T00:00:00.000000Z', reason: '' }),
      want: ['reportingComponent: Required value', "reportingComponent: Invalid value: \"\": name part must be non-empty",
        "reportingComponent: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        'reportingInstance: Required value', 'action: Required value', 'reason: Required value'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(events.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));
  it('events.k8s.io requests name the field reportingController (legacyValidateEvent)', () => {
    const errs = validateEventCreate(ev({ eventTime: '2024-01-01T00:00:00.000000Z', firstTimestamp: null, lastTimestamp: null, count: 0, source: {},
      reportingComponent: 'Bad Name', reportingInstance: 'n1', action: 'Pull' }), true);
    assert.deepEqual(errs.map((e) => e.field), ['reportingController']);
  });
  it('strict (events.k8s.io) validation rejects legacy fields', () => {
    const errs = validateEventCreate(ev({ eventTime: '2024-01-01T00:00:00.000000Z', reportingComponent: 'kubelet', reportingInstance: 'n1', action: 'Pull' }), true);
    assert.deepEqual(errs.map(formatFieldError), [
      'firstTimestamp: Invalid value: "": needs to be unset', 'lastTimestamp: Invalid value: "": needs to be unset',
      'count: Invalid value: "": needs to be unset', 'source: Invalid value: "": needs to be unset',
    ]);
  });
  it('is stored as Go writes a core/v1 Event: source {}, null times, the reporting fields, no empty strings', () => {
    const e: Event = { metadata: { name: 'e', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'web', namespace: 'default', uid: '' },
      reason: 'Pulled', message: '', count: 0, eventTime: '2024-01-01T00:00:00.000000Z', reportingComponent: 'kubelet' };
    events.strategy.canonicalize?.(e);
    assert.deepEqual(e, { metadata: { name: 'e', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' },
      reason: 'Pulled', eventTime: '2024-01-01T00:00:00.000000Z', reportingComponent: 'kubelet', reportingInstance: '',
      source: {}, firstTimestamp: null, lastTimestamp: null });
  });
  it('is created on update and expires', () => {
    assert.equal(events.strategy.allowCreateOnUpdate, true);
    assert.equal(events.ttlSeconds, 3600);
  });
  it('table: LAST SEEN TYPE REASON OBJECT MESSAGE (+ wide)', () => {
    const now = Date.parse('2024-01-01T00:02:00Z');
    assert.deepEqual(events.table.filter((c) => c.priority === undefined).map((c) => c.name), ['Last Seen', 'Type', 'Reason', 'Object', 'Message']);
    assert.deepEqual(events.table.map((c) => c.cell(ev({}), now)),
      ['60s', 'Normal', 'Pulled', 'pod/web', 'spec.containers{app}', 'kubelet, node1', 'Pulled image', '2m', 3, 'web.1']);
  });
  it('field selectors', () => {
    const f = events.selectableFields(ev({}));
    assert.equal(f['involvedObject.name'], 'web');
    assert.equal(f['involvedObject.fieldPath'], 'spec.containers{app}');
    assert.equal(f['source'], 'kubelet');
    assert.equal(f['type'], 'Normal');
  });
});
