// The Scheme: which kinds exist in which group versions, their version priority, and how an
// object moves between versions through the internal (hub) version of its group.
// Counterpart of k8s.io/apimachinery/pkg/runtime/scheme.go.
import { newBadRequest } from '../errors/status-error.ts';
import type { KubeObject } from '../meta/types.ts';
import {
  apiVersionOf, gvkKey, parseGroupVersion, type GroupVersion, type GroupVersionKind,
} from '../schema/group-version.ts';

/** Converts an object of one version of a kind into another shape; may mutate and return its input (never a frozen one). */
export type ConversionFunc = (obj: KubeObject) => KubeObject;

interface KindEntry {
  readonly gvk: GroupVersionKind;
  /** versioned → internal; absent: the shapes are equal (identity, no copy). */
  toInternal?: ConversionFunc;
  /** internal → versioned. */
  fromInternal?: ConversionFunc;
  defaulters: ((obj: KubeObject) => void)[];
}

export class Scheme {
  private readonly kinds = new Map<string, KindEntry>();
  private readonly unversioned = new Map<string, GroupVersionKind>();
  private readonly priorities = new Map<string, string[]>();

  /** Registers kinds served in a group version. */
  addKnownKinds(gv: GroupVersion, kinds: readonly string[]): void {
    for (const kind of kinds) {
      const gvk = { group: gv.group, version: gv.version, kind };
      if (!this.kinds.has(gvkKey(gvk))) this.kinds.set(gvkKey(gvk), { gvk, defaulters: [] });
    }
  }

  /** Kinds that are the same in every version (Status, APIVersions, ...). */
  addUnversionedKinds(gv: GroupVersion, kinds: readonly string[]): void {
    for (const kind of kinds) this.unversioned.set(kind, { group: gv.group, version: gv.version, kind });
  }

  isUnversioned(kind: string): boolean { return this.unversioned.has(kind); }

  /** Versions of a group, most preferred first. */
  setVersionPriority(group: string, versions: readonly string[]): void {
    this.priorities.set(group, [...versions]);
  }

  prioritizedVersions(group: string): readonly string[] {
    return this.priorities.get(group) ?? [];
  }

  recognizes(gvk: GroupVersionKind): boolean {
    return this.kinds.has(gvkKey(gvk));
  }

  /** Conversion between one version and the internal version of the same kind. */
  addConversion(gvk: GroupVersionKind, toInternal: ConversionFunc, fromInternal: ConversionFunc): void {
    const e = this.entry(gvk);
    e.toInternal = toInternal;
    e.fromInternal = fromInternal;
  }

  addDefaulter(gvk: GroupVersionKind, fn: (obj: KubeObject) => void): void {
    this.entry(gvk).defaulters.push(fn);
  }

  /** Applies the versioned defaults of the object's apiVersion/kind. */
  default(obj: KubeObject): void {
    const gvk = this.gvkOf(obj);
    if (gvk === undefined) return;
    const e = this.kinds.get(gvkKey(gvk));
    if (e !== undefined) for (const d of e.defaulters) d(obj);
  }

  /** The object's group version kind, from its apiVersion and kind fields. */
  gvkOf(obj: KubeObject): GroupVersionKind | undefined {
    const gv = parseGroupVersion(obj.apiVersion ?? '');
    if (gv === undefined || obj.kind === undefined || obj.kind === '') return undefined;
    return { ...gv, kind: obj.kind };
  }

  /**
   * Converts to `target` through the internal version. When both versions have the internal
   * shape, only apiVersion changes and the object is not copied. Rejects with BadRequest when
   * the kind is not known in either version.
   */
  convertToVersion(obj: KubeObject, target: GroupVersion): KubeObject {
    const from = this.gvkOf(obj);
    if (from === undefined) throw newBadRequest('Object \'Kind\' is missing');
    const targetApiVersion = apiVersionOf(target);
    if (obj.apiVersion === targetApiVersion) return obj;
    const src = this.kinds.get(gvkKey(from));
    const dst = this.kinds.get(gvkKey({ ...target, kind: from.kind }));
    // Across groups only where a conversion is registered (events.k8s.io Event ↔ core Event).
    const crossGroup = from.group !== target.group && src?.toInternal === undefined && dst?.fromInternal === undefined;
    if (src === undefined || dst === undefined || crossGroup) {
      throw newBadRequest(`no kind "${from.kind}" is registered for version "${targetApiVersion}"`);
    }
    // The input may be shared (the watch cache's frozen objects): conversion functions, which
    // may change their input, get a copy of it; identical shapes (no function) are not deep
    // copied, only given a new top level for the target's apiVersion and kind.
    const converts = src.toInternal !== undefined || dst.fromInternal !== undefined;
    const input = converts && Object.isFrozen(obj) ? structuredClone(obj) : obj;
    const internal = src.toInternal !== undefined ? src.toInternal(input) : input;
    const converted = dst.fromInternal !== undefined ? dst.fromInternal(internal) : internal;
    const out = converted === obj ? { ...obj } : converted;
    out.apiVersion = targetApiVersion;
    out.kind = from.kind;
    return out;
  }

  private entry(gvk: GroupVersionKind): KindEntry {
    const e = this.kinds.get(gvkKey(gvk));
    if (e === undefined) throw new Error(`kind ${gvkKey(gvk)} is not registered`);
    return e;
  }
}
