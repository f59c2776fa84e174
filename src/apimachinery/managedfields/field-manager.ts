// kube's FieldManager (k8s.io/apimachinery/pkg/util/managedfields/internal) as two calls.
// kube stacks managers; the steps below keep its order:
//   Update: decode live-or-new managedFields -> skip objects never tracked -> cap update
//           managers -> the change becomes the manager's Update entry -> strip meta fields.
//   Apply:  version check -> kubectl's last-applied handling -> "before-first-apply" for
//           untracked objects -> merge, prune, move ownership (409 on conflicts) -> strip.
import { StatusError, newBadRequest } from '../errors/status-error.ts';
import { isKubeObject } from '../meta/types.ts';
import type { KubeObject, ManagedFieldsEntry, Unstructured } from '../meta/types.ts';
import type { SchemaNode } from '../openapi/index.ts';
import { deepCopy, isJsonObject } from '../patch/json-value.ts';
import type { JsonObject, JsonValue } from '../patch/json-value.ts';
import { ConflictsError, newApplyConflict } from './conflict.ts';
import { emptyObject } from './empty-object.ts';
import { applyLastAppliedUpdater, kubectlAllowedConflicts } from './last-applied.ts';
import { buildManagerIdentifier, decodeManagedFields, emptyManaged, encodeManagedFields, formatTime, isResetManagedFields } from './managed.ts';
import type { Managed } from './managed.ts';
import { FieldSet } from './set.ts';
import { rootType } from './type-ref.ts';
import { TypedValueError } from './typed.ts';
import { updaterApply, updaterUpdate } from './updater.ts';
import type { Updater } from './updater.ts';
import { fieldElement } from './path-element.ts';
import { validateTyped, validationErrorsMessage } from './validate.ts';
import { ConversionError, isConversionPending, type VersionConverter } from './version-converter.ts';

/** What the field manager knows about the resource being written. */
export interface FieldManagerScope {
  /** The version served to the client and recorded in entries: "v1", "apps/v1". */
  readonly apiVersion: string;
  readonly kind: string;
  /** schemaForGVK(gvk); undefined for objects without schema (fields are deduced). */
  readonly schema: SchemaNode | undefined;
  /** "status", "scale", ... when writing a subresource. */
  readonly subresource?: string;
  /** The strategy's reset fields (GetResetFields), e.g. status for the main resource. */
  readonly resetFields?: FieldSet;
  /**
   * A built-in kind: a Go struct in kube, where a null field is a nil one, which an Update's
   * field set never holds (a protobuf body's absent list, JSON's explicit null).
   */
  readonly typed?: boolean;
  /** Converts to the versions other managers were recorded in (withConversions' converter); undefined: one shape. */
  readonly converter?: VersionConverter;
}

export interface UpdateManagedFieldsArgs extends FieldManagerScope {
  /** The stored object; undefined on create. */
  readonly live: KubeObject | undefined;
  /** The object about to be stored, as the client sent it (after the patch, for patches). */
  readonly updated: KubeObject;
  /** managerOrUserAgent(fieldManager, userAgent); "" records "unknown". */
  readonly manager: string;
  readonly time: Date | string;
}

export interface ApplyArgs extends FieldManagerScope {
  /** The stored object; undefined when the apply creates it. */
  readonly live: KubeObject | undefined;
  /** The parsed apply body (YAML or JSON). */
  readonly patch: Unstructured;
  /** The fieldManager parameter (required for apply; validate it first). */
  readonly manager: string;
  readonly force: boolean;
  readonly time: Date | string;
}

const STRIP = FieldSet.of(
  [fieldElement('apiVersion')], [fieldElement('kind')], [fieldElement('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']
    .map((f) => [fieldElement('metadata'), fieldElement(f)]),
);
const MAX_UPDATE_MANAGERS = 10;

const asJson = (o: KubeObject | Unstructured): JsonObject => o as JsonObject;
const metaOf = (o: JsonObject): JsonObject => (isJsonObject(o['metadata']) ? o['metadata'] : {});

/** A view without metadata.managedFields for read-only walks: copies only the top and metadata. */
function viewWithoutManagedFields(o: JsonObject): JsonObject {
  if (!isJsonObject(o['metadata']) || !Object.hasOwn(o['metadata'], 'managedFields')) return o;
  const meta = { ...o['metadata'] };
  delete meta['managedFields'];
  return { ...o, metadata: meta };
}

function hasNull(v: JsonValue): boolean {
  if (v === null) return true;
  if (Array.isArray(v)) return v.some(hasNull);
  if (isJsonObject(v)) for (const x of Object.values(v)) if (hasNull(x)) return true;
  return false;
}

/** The object without its null fields (copied only where there are some). */
function withoutNulls<V extends JsonValue>(v: V): V {
  if (!hasNull(v)) return v;
  if (Array.isArray(v)) return v.map((x: JsonValue) => (x === null ? x : withoutNulls(x))) as V;
  if (!isJsonObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = withoutNulls(x);
  return out as V;
}

function withoutManagedFields(o: JsonObject): JsonObject {
  const copy = deepCopy(o);
  const meta = metaOf(copy);
  delete meta['managedFields'];
  return copy;
}

function setManagedFields<T extends KubeObject>(obj: T, entries: ManagedFieldsEntry[] | undefined): T {
  const meta = { ...obj.metadata };
  if (entries === undefined) delete meta.managedFields; else meta.managedFields = entries;
  return { ...obj, metadata: meta };
}

function updaterFor(scope: FieldManagerScope): Updater {
  return { type: rootType(scope.schema), ignored: scope.resetFields, ...(scope.converter !== undefined ? { converter: scope.converter } : {}) };
}

function stripMeta(managed: Managed, id: string): void {
  const vs = managed.fields.get(id);
  if (vs === undefined) return;
  const set = vs.set.difference(STRIP);
  if (set.empty()) managed.fields.delete(id); else managed.fields.set(id, { ...vs, set });
}

function cloneManaged(m: Managed): Managed {
  return { fields: new Map(m.fields), times: new Map(m.times) };
}

/** The Update chain below the skip step: cap managers, record the change, strip meta. */
function trackUpdate(scope: FieldManagerScope, live: JsonObject, updated: JsonObject, managed: Managed,
  manager: string, time: string, liveIsEmpty = false): void {
  const id = buildManagerIdentifier({
    manager: manager === '' ? 'unknown' : manager, operation: 'Update', apiVersion: scope.apiVersion, subresource: scope.subresource ?? '',
  });
  const self = 'current-operation';
  // Update only compares the two objects: a deep copy of each (megabytes for a large object) is not needed.
  const view = (o: JsonObject): JsonObject => (scope.typed === true ? withoutNulls(viewWithoutManagedFields(o)) : viewWithoutManagedFields(o));
  // The empty object's nulls are Go's zero-valued slices: they exist, so a create does not add them.
  updaterUpdate(updaterFor(scope), liveIsEmpty ? live : view(live), view(updated), scope.apiVersion, managed.fields, self);
  stripMeta(managed, self);
  const vs = managed.fields.get(self);
  if (vs !== undefined) {
    managed.fields.delete(self);
    const prev = managed.fields.get(id);
    managed.fields.set(id, prev === undefined ? vs : { ...vs, set: vs.set.union(prev.set) });
    managed.times.set(id, time);
  }
  capUpdateManagers(managed);
}

// Beyond ten Update managers, the oldest are merged into "ancient-changes" (per apiVersion).
function capUpdateManagers(managed: Managed): void {
  const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  const secs = (id: string): number => Math.floor(Date.parse(managed.times.get(id) ?? '') / 1000) || 0;
  updaters.sort((a, b) => secs(a) - secs(b) || (a < b ? -1 : a > b ? 1 : 0));
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (const id of updaters) {
    if (length <= MAX_UPDATE_MANAGERS) break;
    const vs = managed.fields.get(id);
    if (vs === undefined) continue;
    const bucket = buildManagerIdentifier({ manager: 'ancient-changes', operation: 'Update', apiVersion: vs.apiVersion });
    const first = firstByVersion.get(vs.apiVersion);
    if (first === undefined) { firstByVersion.set(vs.apiVersion, id); continue; }
    if (!managed.fields.has(bucket)) {
      const f = managed.fields.get(first);
      managed.fields.delete(first);
      if (f !== undefined) managed.fields.set(bucket, f);
    }
    const b = managed.fields.get(bucket);
    managed.fields.set(bucket, { ...vs, set: vs.set.union(b?.set ?? new FieldSet()) });
    managed.fields.delete(id);
    length--;
    const t = managed.times.get(id);
    if (t === undefined) managed.times.delete(bucket); else managed.times.set(bucket, t);
  }
}

/**
 * FieldManager.UpdateNoErrors for create, update and non-apply patch: returns `updated` with
 * metadata.managedFields recording the change for `manager`. Never throws (only withConversions'
 * signal passes): on a failure (a conversion webhook down) the object is written without
 * managedFields, as kube v1.36 does; later kube releases keep the live ones instead.
 */
export function updateManagedFields<T extends KubeObject>(args: UpdateManagedFieldsArgs & { readonly updated: T }): T {
  const live = args.live === undefined ? emptyObject(args.apiVersion, args.kind, args.schema) : asJson(args.live);
  const liveEntries = metaOf(live)['managedFields'] as ManagedFieldsEntry[] | undefined;
  try {
    const managed = decodeLiveOrNew(liveEntries, args.updated.metadata.managedFields, args.subresource !== undefined && args.subresource !== '');
    const tracked = managed.fields.size > 0 || typeof metaOf(live)['uid'] !== 'string' || metaOf(live)['uid'] === '';
    if (tracked) trackUpdate(args, live, asJson(args.updated), managed, args.manager, formatTime(args.time), args.live === undefined);
    return setManagedFields(args.updated, encodeManagedFields(managed));
  } catch (err) {
    if (isConversionPending(err)) throw err;
    return setManagedFields(args.updated, undefined);
  }
}

function decodeOrEmpty(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  try { return decodeManagedFields(entries); } catch { return emptyManaged(); }
}

// Valid managedFields sent by the client replace the live ones; `[]` resets them.
function decodeLiveOrNew(live: readonly ManagedFieldsEntry[] | undefined, sent: readonly ManagedFieldsEntry[] | undefined,
  isSubresource: boolean): Managed {
  if (isSubresource) return decodeOrEmpty(live);
  if (isResetManagedFields(sent)) return emptyManaged();
  try {
    const m = decodeManagedFields(sent);
    if (m.fields.size > 0) return m;
  } catch { /* invalid entries from the client fall back to the live ones */ }
  return decodeOrEmpty(live);
}

/** GroupVersionKind.String(): "apps/v1, Kind=Deployment", "/v1, Kind=ConfigMap". */
function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const gv = slash < 0 ? `/${apiVersion}` : apiVersion;
  return `${gv}, Kind=${kind}`;
}

function internal(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: '', code: 500 });
}

/**
 * FieldManager.Apply for an apply patch: the merged object with managedFields updated.
 * Rejects with 409 Conflict (causes: FieldManagerConflict) when fields owned by others would
 * change and !force; 400 BadRequest for a patch of another kind or version, or one that sets
 * metadata.managedFields; 500 for a patch that does not fit the schema (a field the schema does not
 * declare, duplicate list keys, ...), whatever the field validation directive.
 * The caller defaults, validates and stores the result like any update.
 */
export function apply(args: ApplyArgs): { object: KubeObject & Unstructured } {
  const patch = asJson(args.patch);
  const live = args.live === undefined ? emptyObject(args.apiVersion, args.kind, args.schema) : asJson(args.live);
  let managed: Managed;
  try {
    managed = decodeManagedFields(metaOf(live)['managedFields'] as ManagedFieldsEntry[] | undefined);
  } catch (err) {
    throw internal(`failed to decode managed fields: ${err instanceof Error ? err.message : String(err)}`);
  }
  const pv = typeof patch['apiVersion'] === 'string' ? patch['apiVersion'] : '';
  const pk = typeof patch['kind'] === 'string' ? patch['kind'] : '';
  if (pv !== args.apiVersion || pk !== args.kind) throw newBadRequest(`invalid object type: ${gvkString(pv, pk)}`);
  if (metaOf(patch)['managedFields'] !== undefined && metaOf(patch)['managedFields'] !== null) {
    throw newBadRequest('metadata.managedFields must be nil');
  }
  if (args.schema !== undefined) {
    // ObjectToTyped of the patch validates it (no duplicates allowed) before anything merges.
    const errs = validateTyped(patch, updaterFor(args).type);
    if (errs.length > 0) throw typedPatchError(patch, pv, pk, validationErrorsMessage(errs));
  }
  const time = formatTime(args.time);
  const run = (force: boolean): { object: JsonObject; managed: Managed } => applyTracked(args, live, patch, cloneManaged(managed), force, time);
  let result: { object: JsonObject; managed: Managed };
  try {
    try {
      result = run(args.force);
    } catch (err) {
      // kubectl moving from client-side apply may take over fields its last-applied annotation holds.
      if (!(err instanceof ConflictsError) || args.manager !== 'kubectl') throw err;
      const allowed = kubectlAllowedConflicts(live, args.apiVersion, updaterFor(args).type);
      if (allowed === undefined) throw err;
      const rest = err.conflicts.filter((c) => !allowed.has(c.path));
      if (rest.length > 0) throw new ConflictsError(rest);
      result = run(true);
    }
  } catch (err) {
    if (err instanceof ConflictsError) throw newApplyConflict(err.conflicts);
    if (err instanceof TypedValueError) throw typedPatchError(patch, pv, pk, err.message);
    // Go's updater returns a plain error, which becomes a 500 of unknown reason.
    if (err instanceof ConversionError) throw internal(err.message);
    throw err;
  }
  let object = result.object;
  if (args.manager === 'kubectl') object = applyLastAppliedUpdater(object, patch);
  return { object: setManagedFields(withMetadata(object), encodeManagedFields(result.managed)) };
}

// The live object and the empty one both carry metadata, so a merge keeps it; an object without
// one gets an empty metadata, as setting managedFields on it always did.
const withMetadata = (o: JsonObject): KubeObject & Unstructured => (isKubeObject(o) ? o : { ...o, metadata: {} });

/** The 500 kube answers when the applied configuration does not fit the schema. */
function typedPatchError(patch: JsonObject, apiVersion: string, kind: string, detail: string): StatusError {
  const meta = metaOf(patch);
  const nn = `${typeof meta['namespace'] === 'string' ? meta['namespace'] : ''}/${typeof meta['name'] === 'string' ? meta['name'] : ''}`;
  return internal(`failed to create typed patch object (${nn}; ${gvkString(apiVersion, kind)}): ${detail}`);
}

function applyTracked(scope: ApplyArgs, live: JsonObject, patch: JsonObject, managed: Managed, force: boolean,
  time: string): { object: JsonObject; managed: Managed } {
  let current = live;
  if (managed.fields.size === 0) {
    // Fields set before anyone applied belong to "before-first-apply".
    const empty = emptyObject(scope.apiVersion, scope.kind, scope.schema);
    trackUpdate(scope, empty, live, managed, 'before-first-apply', time, true);
    current = live;
  }
  const id = buildManagerIdentifier({ manager: scope.manager === '' ? 'unknown' : scope.manager, operation: 'Apply', subresource: scope.subresource ?? '' });
  const liveJson = withoutManagedFields(current);
  const out = updaterApply(updaterFor(scope), liveJson, patch, scope.apiVersion, managed.fields, id, force);
  stripMeta(managed, id);
  if (out === undefined) return { object: liveJson, managed };
  managed.times.set(id, time);
  return { object: out, managed };
}
