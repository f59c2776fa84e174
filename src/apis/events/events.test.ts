import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { Event } from '../core/v1/types.ts';
import { eventFromCore, eventsConversion, eventToCore } from './conversion.ts';
import { eventsV1Events } from './event.ts';
import type { EventsV1Event } from './v1/types.ts';

const ctx = systemContext('default');
const v1: EventsV1Event = {
  apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'web.1', namespace: 'default' },
  eventTime: '2024-01-01T00:00:00.000000Z', series: { count: 2, lastObservedTime: '2024-01-01T00:01:00.000000Z' },
  reportingController: 'kubelet', reportingInstance: 'node1', action: 'Pull', reason: 'Pulled',
  regarding: { kind: 'Pod', name: 'web', namespace: 'default' }, related: { kind: 'Node', name: 'node1' },
  note: 'Pulled image', type: 'Normal', deprecatedSource: { component: 'kubelet' },
  deprecatedFirstTimestamp: null, deprecatedLastTimestamp: '2024-01-01T00:00:00Z', deprecatedCount: 3,
};
const core: Event = {
  apiVersion: 'v1', kind: 'Event', metadata: { name: 'web.1', namespace: 'default' },
  eventTime: '2024-01-01T00:00:00.000000Z', series: { count: 2, lastObservedTime: '2024-01-01T00:01:00.000000Z' },
  reportingComponent: 'kubelet', reportingInstance: 'node1', action: 'Pull', reason: 'Pulled',
  involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' }, related: { kind: 'Node', name: 'node1' },
  message: 'Pulled image', type: 'Normal', source: { component: 'kubelet' },
  firstTimestamp: null, lastTimestamp: '2024-01-01T00:00:00Z', count: 3,
};

describe('events.k8s.io/v1 <-> core/v1 Event', () => {
  it('renames every field to the hub', () => assert.deepEqual(eventToCore(v1), core));
  it('renames every field from the hub', () => assert.deepEqual(eventFromCore(core), v1));
  const cases: { name: string; obj: EventsV1Event }[] = [
    { name: 'full', obj: v1 },
    { name: 'minimal, as Go writes it', obj: { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e' }, eventTime: null,
      regarding: {}, deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null } },
    { name: 'unknown fields ride along', obj: { ...v1, ...{ extra: { a: 1 } } } },
  ];
  for (const c of cases) {
    it(`round trip: ${c.name}`, () => {
      const before = structuredClone(c.obj);
      assert.deepEqual(eventFromCore(eventToCore(c.obj)), c.obj);
      assert.deepEqual(c.obj, before, 'input untouched');
    });
  }
  it('round trip from the hub', () => assert.deepEqual(eventToCore(eventFromCore(core)), core));
  it('absent fields stay absent', () => {
    assert.deepEqual(eventToCore({ metadata: { name: 'e' }, note: 'x' }), { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, message: 'x' });
  });
  it('leaves the hub as Go writes an events.k8s.io/v1 Event: empty strings out, structs and times in', () => {
    const stored: Event = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'default' }, eventTime: '2024-01-01T00:00:00.000000Z',
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' }, reason: 'Pulled', message: '', type: 'Normal', action: 'Pull',
      source: {}, firstTimestamp: null, lastTimestamp: null, reportingComponent: '', reportingInstance: '', count: 0 };
    assert.deepEqual(eventFromCore(stored), {
      apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e', namespace: 'default' }, eventTime: '2024-01-01T00:00:00.000000Z',
      regarding: { kind: 'Pod', name: 'web', namespace: 'default' }, reason: 'Pulled', type: 'Normal', action: 'Pull',
      deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null,
    });
  });
  it('ConversionFuncs for the control plane', () => {
    assert.equal(eventsConversion.toHub(structuredClone(v1)).apiVersion, 'v1');
    assert.equal(eventsConversion.fromHub(structuredClone(core)).apiVersion, 'events.k8s.io/v1');
  });
});

describe('events.k8s.io/v1 definition', () => {
  it('is served as events.k8s.io Event from the core shape', () => {
    assert.equal(eventsV1Events.group, 'events.k8s.io');
    assert.deepEqual([eventsV1Events.kind, eventsV1Events.resource, eventsV1Events.shortNames], ['Event', 'events', ['ev']]);
    assert.equal(eventsV1Events.ttlSeconds, 3600);
  });
  it('validates strictly (events.k8s.io rules)', () => {
    const legacy: Event = { ...core, eventTime: null, series: { count: 1 } } as Event;
    const errs = eventsV1Events.strategy.validate(ctx, legacy).map(formatFieldError);
    assert.ok(errs.includes('eventTime: Required value'), errs.join('\n'));
    assert.ok(errs.includes('series.count: Invalid value: "": should be at least 2'), errs.join('\n'));
    assert.ok(errs.includes('count: Invalid value: "": needs to be unset'), errs.join('\n'));
  });
  it('a valid events.k8s.io event passes', () => {
    const ok = eventToCore({ ...v1, deprecatedSource: {}, deprecatedLastTimestamp: null, deprecatedCount: 0 });
    assert.deepEqual(eventsV1Events.strategy.validate(ctx, ok).map(formatFieldError), []);
  });
  it('same table as core events', () => {
    assert.deepEqual(eventsV1Events.table.map((c) => c.name),
      ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name']);
  });
});
