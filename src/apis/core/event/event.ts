// core/v1 Events (pkg/registry/core/event): created on update, expire after the event TTL.
import type { ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { goFields, specStatusStrategy, translateTimestampSince } from '../../../registry/rest/kit.ts';
import type { Event } from '../v1/types.ts';
import { validateEventCreate, validateEventUpdate } from './validation.ts';

/** kube-apiserver's --event-ttl default (1h). */
export const DEFAULT_EVENT_TTL_SECONDS = 3600;

function eventSource(e: { readonly source?: { readonly component?: string; readonly host?: string }; readonly reportingComponent?: string; readonly reportingInstance?: string }): string {
  const component = (e.source?.component ?? '') !== '' ? e.source?.component ?? '' : e.reportingComponent ?? '';
  const instance = (e.source?.host ?? '') !== '' ? e.source?.host ?? '' : e.reportingInstance ?? '';
  if (component === '' && instance === '') return '';
  return instance === '' ? component : `${component}, ${instance}`;
}

const isSet = (t: string | null | undefined): t is string => t !== undefined && t !== null && t !== '';

function firstSeen(e: Parameters<typeof lastSeen>[0], now: number): string {
  return isSet(e.firstTimestamp) ? translateTimestampSince(e.firstTimestamp, now) : translateTimestampSince(e.eventTime, now);
}

function lastSeen(e: { readonly firstTimestamp?: string | null; readonly lastTimestamp?: string | null; readonly eventTime?: string | null;
  readonly series?: { readonly lastObservedTime?: string } }, now: number): string {
  if (e.series !== undefined) return translateTimestampSince(e.series.lastObservedTime, now);
  return isSet(e.lastTimestamp) ? translateTimestampSince(e.lastTimestamp, now) : firstSeen(e, now);
}

/** The fields of an ObjectReference and an EventSource: all omitempty strings. */
const REFERENCE_FIELDS = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];

/**
 * A core/v1 Event as Go writes it: involvedObject and source are structs (always written),
 * firstTimestamp, lastTimestamp and eventTime are times (null when unset), reportingComponent
 * and reportingInstance have no omitempty; the other strings and count are left out when empty.
 */
function goEvent(e: Event): void {
  e.involvedObject ??= {};
  goFields(e.involvedObject, {}, REFERENCE_FIELDS);
  if (e.related !== undefined && e.related !== null) goFields(e.related, {}, REFERENCE_FIELDS);
  e.source ??= {};
  goFields(e.source, {}, ['component', 'host']);
  for (const t of ['firstTimestamp', 'lastTimestamp', 'eventTime'] as const) if (e[t] === undefined || e[t] === '') e[t] = null;
  goFields(e, { reportingComponent: '', reportingInstance: '' }, ['reason', 'message', 'count', 'type', 'action']);
}

/** The events strategy; `eventsV1`: the stricter rules of events.k8s.io/v1 (served from the same storage). */
export function eventStrategy(eventsV1: boolean) {
  return specStatusStrategy<Event>({
    validate: (e) => validateEventCreate(e, eventsV1),
    allowCreateOnUpdate: true,
    revalidateOnUpdate: false,
    validateUpdate: (e, old) => validateEventUpdate(e, old, eventsV1),
    canonicalize: goEvent,
  });
}

export function newEventDefinition(ttlSeconds = DEFAULT_EVENT_TTL_SECONDS) {
  return {
    group: '', kind: 'Event', resource: 'events', singular: 'event', shortNames: ['ev'], namespaced: true,
    strategy: eventStrategy(false),
    ttlSeconds,
    selectableFields: (e) => {
      const source = (e.source?.component ?? '') !== '' ? e.source?.component ?? '' : e.reportingComponent ?? '';
      return {
        'metadata.name': e.metadata.name ?? '',
        'metadata.namespace': e.metadata.namespace ?? '',
        'involvedObject.kind': e.involvedObject?.kind ?? '',
        'involvedObject.namespace': e.involvedObject?.namespace ?? '',
        'involvedObject.name': e.involvedObject?.name ?? '',
        'involvedObject.uid': e.involvedObject?.uid ?? '',
        'involvedObject.apiVersion': e.involvedObject?.apiVersion ?? '',
        'involvedObject.resourceVersion': e.involvedObject?.resourceVersion ?? '',
        'involvedObject.fieldPath': e.involvedObject?.fieldPath ?? '',
        reason: e.reason ?? '',
        reportingComponent: e.reportingComponent ?? '',
        source,
        type: e.type ?? '',
      };
    },
    table: [
      { name: 'Last Seen', type: 'string', cell: (e, now) => lastSeen(e, now) },
      { name: 'Type', type: 'string', cell: (e) => e.type ?? '' },
      { name: 'Reason', type: 'string', cell: (e) => e.reason ?? '' },
      { name: 'Object', type: 'string', cell: (e) => {
        const kind = (e.involvedObject?.kind ?? '').toLowerCase();
        const name = e.involvedObject?.name ?? '';
        return name !== '' ? `${kind}/${name}` : kind;
      } },
      { name: 'Subobject', type: 'string', priority: 1, cell: (e) => e.involvedObject?.fieldPath ?? '' },
      { name: 'Source', type: 'string', priority: 1, cell: (e) => eventSource(e) },
      { name: 'Message', type: 'string', cell: (e) => (e.message ?? '').trim() },
      { name: 'First Seen', type: 'string', priority: 1, cell: (e, now) => firstSeen(e, now) },
      { name: 'Count', type: 'string', priority: 1, cell: (e) => {
        if (e.series !== undefined) return e.series.count ?? 0;
        return (e.count ?? 0) === 0 ? 1 : e.count ?? 1;
      } },
      { name: 'Name', type: 'string', format: 'name', priority: 1, cell: (e) => e.metadata.name ?? '' },
    ],
  } satisfies ResourceDefinition<Event>;
}

export const events = newEventDefinition();
