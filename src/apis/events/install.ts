// events.k8s.io/v1: core/v1 Events in another shape. They are stored as core events (one
// storage, one resourceVersion sequence) and converted at the endpoint.
// Counterpart of pkg/registry/events/rest.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import type { ResourceDefinition } from '../../registry/rest/strategy.ts';
import { eventsConversion } from './conversion.ts';
import { newEventsV1Definition } from './event.ts';

export function eventsGroup(ttlSeconds: number): APIGroupDefinition {
  const events = {
    ...newEventsV1Definition(ttlSeconds),
    storedAs: { groupResource: 'events', hubVersion: { group: '', version: 'v1' } },
  } as ResourceDefinition<KubeObject>;
  return {
    group: 'events.k8s.io',
    versions: [{ version: 'v1', resources: [events] }],
    conversions: [{ version: 'v1', kind: 'Event', toHub: eventsConversion.toHub, fromHub: eventsConversion.fromHub }],
  };
}
