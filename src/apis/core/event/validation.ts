// core/v1 Event validation (pkg/apis/core/validation/events.go). Requests to core/v1 get only
// the legacy checks; `strict` adds what events.k8s.io/v1 requires.
import { fieldPath, invalid, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateImmutableField, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { byteLength, isDNS1123Subdomain, isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Event } from '../v1/types.ts';

const REPORTING_INSTANCE_LIMIT = 128;
const ACTION_LIMIT = 128;
const REASON_LIMIT = 128;
const NOTE_LIMIT = 1024;

const isSet = (t: string | null | undefined): boolean => t !== undefined && t !== null && t !== '';

/**
 * legacyValidateEvent. A core/v1 request names the reporting controller by its core/v1 field,
 * `reportingComponent`; events.k8s.io requests by `reportingController`.
 */
function legacyValidateEvent(e: DeepReadonly<Event>, reportingControllerField: string): FieldError[] {
  const errs: FieldError[] = [];
  const ns = e.metadata.namespace ?? '';
  const involvedNs = e.involvedObject?.namespace ?? '';
  const nsPath = fieldPath('involvedObject', 'namespace');
  if (!isSet(e.eventTime)) {
    if (involvedNs === '') {
      if (ns !== '' && ns !== 'default') errs.push(invalid(nsPath, involvedNs, 'does not match event.namespace'));
    } else if (ns !== involvedNs) {
      errs.push(invalid(nsPath, involvedNs, 'does not match event.namespace'));
    }
  } else {
    if (involvedNs === '' && ns !== 'default' && ns !== 'kube-system') errs.push(invalid(nsPath, involvedNs, 'does not match event.namespace'));
    const controller = e.reportingComponent ?? '';
    if (controller === '') errs.push(required(reportingControllerField));
    for (const m of isQualifiedName(controller)) errs.push(invalid(reportingControllerField, controller, m));
    const instance = e.reportingInstance ?? '';
    if (instance === '') errs.push(required('reportingInstance'));
    if (byteLength(instance) > REPORTING_INSTANCE_LIMIT) errs.push(invalid('reportingInstance', '', `can have at most ${REPORTING_INSTANCE_LIMIT} characters`));
    const action = e.action ?? '';
    if (action === '') errs.push(required('action'));
    if (byteLength(action) > ACTION_LIMIT) errs.push(invalid('action', '', `can have at most ${ACTION_LIMIT} characters`));
    const reason = e.reason ?? '';
    if (reason === '') errs.push(required('reason'));
    if (byteLength(reason) > REASON_LIMIT) errs.push(invalid('reason', '', `can have at most ${REASON_LIMIT} characters`));
    if (byteLength(e.message ?? '') > NOTE_LIMIT) errs.push(invalid('message', '', `can have at most ${NOTE_LIMIT} characters`));
  }
  for (const m of isDNS1123Subdomain(ns)) errs.push(invalid('namespace', ns, m));
  return errs;
}

function validateSeries(e: DeepReadonly<Event>): FieldError[] {
  if (e.series === undefined) return [];
  const errs: FieldError[] = [];
  if ((e.series.count ?? 0) < 2) errs.push(invalid('series.count', '', 'should be at least 2'));
  if (!isSet(e.series.lastObservedTime)) errs.push(required('series.lastObservedTime'));
  return errs;
}

const reportingControllerField = (strict: boolean): string => (strict ? 'reportingController' : 'reportingComponent');

/** ValidateEventCreate; `strict` for events.k8s.io/v1 requests. */
export function validateEventCreate(e: DeepReadonly<Event>, strict = false): FieldError[] {
  const errs = legacyValidateEvent(e, reportingControllerField(strict));
  if (!strict) return errs;
  errs.push(...validateObjectMeta(e.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }), ...validateSeries(e));
  if (!isSet(e.eventTime)) errs.push(required('eventTime'));
  if (e.type !== 'Normal' && e.type !== 'Warning') errs.push(invalid('type', '', `has invalid value: ${e.type ?? ''}`));
  if (isSet(e.firstTimestamp)) errs.push(invalid('firstTimestamp', '', 'needs to be unset'));
  if (isSet(e.lastTimestamp)) errs.push(invalid('lastTimestamp', '', 'needs to be unset'));
  if ((e.count ?? 0) !== 0) errs.push(invalid('count', '', 'needs to be unset'));
  if ((e.source?.component ?? '') !== '' || (e.source?.host ?? '') !== '') errs.push(invalid('source', '', 'needs to be unset'));
  return errs;
}

type Ref = DeepReadonly<NonNullable<Event['involvedObject']>>;
/** core.ObjectReference as Go prints the internal struct in an immutable-field error. */
const goReference = (r: Ref | undefined): unknown => r === undefined ? null : {
  Kind: r.kind ?? '', Namespace: r.namespace ?? '', Name: r.name ?? '', UID: r.uid ?? '',
  APIVersion: r.apiVersion ?? '', ResourceVersion: r.resourceVersion ?? '', FieldPath: r.fieldPath ?? '',
};
const goSource = (s: DeepReadonly<Event['source']>): unknown => ({ Component: s?.component ?? '', Host: s?.host ?? '' });

export function validateEventUpdate(e: DeepReadonly<Event>, old: DeepReadonly<Event>, strict = false): FieldError[] {
  const errs = legacyValidateEvent(e, reportingControllerField(strict));
  if (!strict) return errs;
  if (!deepEqual(e.series, old.series)) errs.push(...validateSeries(e));
  const immutable: [keyof Event, unknown, unknown][] = [
    ['involvedObject', goReference(e.involvedObject), goReference(old.involvedObject)], ['reason', e.reason, old.reason], ['message', e.message, old.message],
    ['source', goSource(e.source), goSource(old.source)], ['firstTimestamp', e.firstTimestamp, old.firstTimestamp],
    ['lastTimestamp', e.lastTimestamp, old.lastTimestamp], ['count', e.count, old.count], ['reason', e.reason, old.reason],
    ['type', e.type, old.type], ['eventTime', e.eventTime, old.eventTime], ['action', e.action, old.action],
    ['related', goReference(e.related), goReference(old.related)], ['reportingComponent', e.reportingComponent, old.reportingComponent],
    ['reportingInstance', e.reportingInstance, old.reportingInstance],
  ];
  for (const [name, a, b] of immutable) {
    const p = name === 'reportingComponent' ? 'reportingController' : name;
    errs.push(...validateImmutableField(a ?? null, b ?? null, fieldPath(p)));
  }
  return errs;
}
