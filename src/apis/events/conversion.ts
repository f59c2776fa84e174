// events.k8s.io/v1 Event <-> core/v1 Event (pkg/apis/events/v1/conversion.go): the same object
// under other names. Fields are renamed one to one; what leaves the hub is then written the way
// Go encodes an events.k8s.io/v1 Event (empty strings left out, structs and times always there).
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { goFields } from '../../registry/rest/kit.ts';
import type { Event } from '../core/v1/types.ts';
import type { EventsV1Event } from './v1/types.ts';
import { setKey } from '../../apimachinery/patch/index.ts';

/** [events.k8s.io/v1 name, core/v1 name]; the other fields share their name. */
const RENAMES: readonly (readonly [keyof EventsV1Event, keyof Event])[] = [
  ['note', 'message'],
  ['regarding', 'involvedObject'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];
const SHARED = ['metadata', 'eventTime', 'series', 'reportingInstance', 'action', 'reason', 'related', 'type'] as const;

function move(src: object, pairs: readonly (readonly [string, string])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = new Map<string, unknown>(Object.entries(src));
  for (const [from, to] of pairs) if (fields.has(from)) out[to] = fields.get(from);
  // Unknown fields ride along unchanged (objects are stored as decoded JSON).
  const known = new Set(pairs.map(([from]) => from));
  for (const [k, v] of Object.entries(src)) if (!known.has(k) && k !== 'apiVersion' && k !== 'kind') setKey(out, k, v);
  return out;
}

const TO_CORE: readonly (readonly [string, string])[] = [...RENAMES.map(([a, b]) => [a, b] as const), ...SHARED.map((k) => [k, k] as const)];
const FROM_CORE: readonly (readonly [string, string])[] = TO_CORE.map(([a, b]) => [b, a] as const);

/** Convert_v1_Event_To_core_Event. Does not modify its input. */
export function eventToCore(e: EventsV1Event): Event {
  const out = move(e, TO_CORE);
  return { apiVersion: 'v1', kind: 'Event', ...out } as Event;
}

const REFERENCE_FIELDS = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];

/**
 * An events.k8s.io/v1 Event as Go writes it: eventTime has no omitempty (null when unset),
 * regarding and deprecatedSource are structs (always written), the deprecated timestamps are
 * times (null when unset); reportingController, reportingInstance, action, reason, note, type and
 * deprecatedCount are left out when empty.
 */
function goEventsV1Event(e: EventsV1Event): EventsV1Event {
  if (e.eventTime === undefined || e.eventTime === '') e.eventTime = null;
  e.regarding = { ...e.regarding };
  goFields(e.regarding, {}, REFERENCE_FIELDS);
  if (e.related !== undefined && e.related !== null) {
    e.related = { ...e.related };
    goFields(e.related, {}, REFERENCE_FIELDS);
  }
  e.deprecatedSource = { ...e.deprecatedSource };
  goFields(e.deprecatedSource, {}, ['component', 'host']);
  for (const t of ['deprecatedFirstTimestamp', 'deprecatedLastTimestamp'] as const) if (e[t] === undefined || e[t] === '') e[t] = null;
  goFields(e, {}, ['reportingController', 'reportingInstance', 'action', 'reason', 'note', 'type', 'deprecatedCount']);
  return e;
}

/** Convert_core_Event_To_v1_Event, then the JSON Go writes for it. Does not modify its input. */
export function eventFromCore(e: Event): EventsV1Event {
  const out = move(e, FROM_CORE);
  return goEventsV1Event({ apiVersion: 'events.k8s.io/v1', kind: 'Event', ...out } as EventsV1Event);
}

/**
 * The conversion the control plane applies at the events.k8s.io/v1 endpoint: its hub is the
 * core/v1 Event of the core events storage (another group), so `toHub` yields apiVersion v1.
 */
export const eventsConversion = {
  version: 'v1',
  kind: 'Event',
  hubGroupVersion: { group: '', version: 'v1' },
  toHub: (obj: KubeObject): KubeObject => eventToCore(obj as EventsV1Event) as KubeObject,
  fromHub: (obj: KubeObject): KubeObject => eventFromCore(obj as Event) as KubeObject,
} as const;
