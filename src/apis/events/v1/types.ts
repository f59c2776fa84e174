// Wire shape (JSON) of events.k8s.io/v1 Event. It is stored as a core/v1 Event (the hub).
// Counterpart of k8s.io/api/events/v1.
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';
import type { EventSource, ObjectReference } from '../../core/v1/types.ts';

export interface EventSeries { count?: number; lastObservedTime?: string }

export interface EventsV1Event {
  apiVersion?: string; kind?: string; metadata: ObjectMeta;
  eventTime?: string | null;
  series?: EventSeries;
  reportingController?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  regarding?: ObjectReference;
  related?: ObjectReference;
  note?: string;
  type?: string;
  deprecatedSource?: EventSource;
  deprecatedFirstTimestamp?: string | null;
  deprecatedLastTimestamp?: string | null;
  deprecatedCount?: number;
}
