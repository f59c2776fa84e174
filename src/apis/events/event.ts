// events.k8s.io/v1 events: served from the core events storage (kube's storage version of both
// is core/v1 Event). The strategy sees core/v1 Events (converted at the endpoint) and applies
// the stricter events.k8s.io rules; table, field selectors and TTL are core's.
// Counterpart of pkg/registry/core/event and pkg/apis/events/v1/conversion.go.
import type { ResourceDefinition } from '../../registry/rest/strategy.ts';
import { DEFAULT_EVENT_TTL_SECONDS, eventStrategy, newEventDefinition } from '../core/event/event.ts';
import type { Event } from '../core/v1/types.ts';

export function newEventsV1Definition(ttlSeconds = DEFAULT_EVENT_TTL_SECONDS) {
  const core = newEventDefinition(ttlSeconds);
  return {
    ...core,
    group: 'events.k8s.io',
    strategy: eventStrategy(true),
  } satisfies ResourceDefinition<Event>;
}

export const eventsV1Events = newEventsV1Definition();
