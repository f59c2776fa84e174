// metadata.managedFields <-> the managers' field sets (kube's internal/managedfields.go).
// A manager is identified by the JSON of its entry without fields and time (and without
// apiVersion for Apply entries), so "kubectl" applying and "kubectl" updating, or updating
// through /status, are different managers.
// Counterpart of k8s.io/apimachinery/pkg/util/managedfields/internal/managedfields.go.
import type { ManagedFieldsEntry } from '../meta/types.ts';
import { compareStrings, goJson } from './path-element.ts';
import { FieldSet } from './set.ts';

export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  /** True for an Apply entry. */
  readonly applied: boolean;
}

export interface Managed {
  /** Keyed by manager identifier (see buildManagerIdentifier). */
  readonly fields: Map<string, VersionedSet>;
  /** RFC 3339 times by manager identifier; absent when the entry has none. */
  readonly times: Map<string, string>;
}

export const emptyManaged = (): Managed => ({ fields: new Map(), times: new Map() });

export interface ManagerInfo {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion?: string;
  readonly subresource?: string;
}

/** BuildManagerIdentifier: Go's JSON of the entry with fieldsType, fieldsV1 and time cleared. */
export function buildManagerIdentifier(info: ManagerInfo): string {
  const parts: string[] = [];
  if (info.manager !== '') parts.push(`"manager":${goJson(info.manager)}`);
  parts.push(`"operation":${goJson(info.operation)}`);
  if (info.operation !== 'Apply' && info.apiVersion !== undefined && info.apiVersion !== '') {
    parts.push(`"apiVersion":${goJson(info.apiVersion)}`);
  }
  if (info.subresource !== undefined && info.subresource !== '') parts.push(`"subresource":${goJson(info.subresource)}`);
  return `{${parts.join(',')}}`;
}

function parseManagerIdentifier(id: string): ManagerInfo {
  const o = JSON.parse(id) as { manager?: string; operation?: 'Apply' | 'Update'; apiVersion?: string; subresource?: string };
  const info: { -readonly [K in keyof ManagerInfo]: ManagerInfo[K] } = { manager: o.manager ?? '', operation: o.operation ?? 'Update' };
  if (o.apiVersion !== undefined) info.apiVersion = o.apiVersion;
  if (o.subresource !== undefined) info.subresource = o.subresource;
  return info;
}

/** DecodeManagedFields. Throws an Error naming the first invalid entry. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  const managed = emptyManaged();
  (entries ?? []).forEach((e, i) => {
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new Error('operation must be `Apply` or `Update`');
    if (e.apiVersion === undefined || e.apiVersion === '') throw new Error('apiVersion must not be empty');
    if (e.fieldsType === undefined || e.fieldsType === '') throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType "${e.fieldsType}" in managed fields entry ${i}`);
    const id = buildManagerIdentifier({
      manager: e.manager ?? '', operation: e.operation, apiVersion: e.apiVersion, subresource: e.subresource ?? '',
    });
    managed.fields.set(id, {
      set: FieldSet.fromFieldsV1(e.fieldsV1 ?? {}), apiVersion: e.apiVersion, applied: e.operation === 'Apply',
    });
    if (e.time !== undefined) managed.times.set(id, e.time);
  });
  return managed;
}

const seconds = (t: string | undefined): number => (t === undefined ? 0 : Math.floor(Date.parse(t) / 1000) || 0);

/** encodeManagedFields: undefined when nobody manages anything, else entries in kube's order. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const out: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const info = parseManagerIdentifier(id);
    const e: ManagedFieldsEntry = {};
    if (info.manager !== '') e.manager = info.manager;
    e.operation = vs.applied ? 'Apply' : info.operation;
    e.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time !== undefined) e.time = time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = vs.set.toFieldsV1();
    if (info.subresource !== undefined && info.subresource !== '') e.subresource = info.subresource;
    out.push(e);
  }
  return out.sort((p, q) => {
    if (p.operation !== q.operation) return compareStrings(p.operation ?? '', q.operation ?? '');
    const ps = seconds(p.time);
    const qs = seconds(q.time);
    if (ps !== qs) return ps < qs ? -1 : 1;
    return compareStrings(p.manager ?? '', q.manager ?? '')
      || compareStrings(p.apiVersion ?? '', q.apiVersion ?? '')
      || compareStrings(p.subresource ?? '', q.subresource ?? '');
  });
}

/** isResetManagedFields: `[]`, or a single empty entry, asks to drop all managed fields. */
export function isResetManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): boolean {
  if (entries === undefined || entries === null) return false;
  if (entries.length === 0) return true;
  return entries.length === 1 && Object.keys(entries[0] ?? {}).length === 0;
}

/** Time as kube stores it in managedFields: RFC 3339, UTC, whole seconds. */
export function formatTime(t: Date | string): string {
  const d = typeof t === 'string' ? new Date(t) : t;
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
