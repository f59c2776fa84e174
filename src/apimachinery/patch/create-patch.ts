// Creating strategic merge patches: the 2-way patch (CreateTwoWayMergePatch) and the 3-way patch
// kubectl apply sends (CreateThreeWayMergePatch: changes from live to desired, plus deletions
// of what the last-applied configuration had and the desired one dropped).
// Counterpart of k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (CreateTwoWayMergePatch,
// CreateThreeWayMergePatch).
import { stringify } from 'yaml';
import type { Definitions, SchemaNode } from '../openapi/index.ts';
import { mergingMapsHaveConflicts } from './conflicts.ts';
import { diffMaps } from './diff.ts';
import { PatchError, sentinel } from './errors.ts';
import type { JsonObject } from './json-value.ts';
import { mergeMap } from './merge.ts';
import { patchMetaFromSchema, type LookupPatchMeta } from './patch-meta.ts';
import { toJsonObject } from './strategic-merge-patch.ts';

function lookupFor(schema: SchemaNode | undefined, defs: Definitions | undefined): LookupPatchMeta {
  if (schema === undefined) throw sentinel('UnsupportedStrategicMergePatchFormat');
  return defs === undefined ? patchMetaFromSchema(schema) : patchMetaFromSchema(schema, defs);
}

/** sigs.k8s.io/yaml's rendering, used in the conflict message. */
function toYAML(m: JsonObject): string {
  return stringify(m, { sortMapEntries: true, indentSeq: false });
}

/**
 * The patch that, applied with applyStrategicMergePatch, turns `original` into `modified`:
 * additions and changes, nulls for removed fields, `$patch: delete` items and
 * `$deleteFromPrimitiveList` for merging lists, `$setElementOrder` lists, and `$retainKeys`.
 * Arguments are not modified. Throws a PatchError as the apply does.
 */
export function createTwoWayMergePatch(original: unknown, modified: unknown, schema: SchemaNode | undefined,
  defs?: Definitions): JsonObject {
  const meta = lookupFor(schema, defs);
  return diffMaps(toJsonObject(original), toJsonObject(modified), meta, { setElementOrder: true });
}

/**
 * kubectl apply's patch: `original` is the last-applied configuration, `modified` the new
 * configuration, `current` the live object. With `overwrite` false, throws a PatchError of kind
 * 'Conflict' when the patch changes keys that changed differently from original to current.
 */
export function createThreeWayMergePatch(original: unknown, modified: unknown, current: unknown,
  schema: SchemaNode | undefined, overwrite = true, defs?: Definitions): JsonObject {
  const meta = lookupFor(schema, defs);
  // One private copy of each document, shared by the diffs as kube shares its decoded maps.
  const originalMap = toJsonObject(original);
  const modifiedMap = toJsonObject(modified);
  const currentMap = toJsonObject(current);
  const delta = diffMaps(currentMap, modifiedMap, meta, { ignoreDeletions: true, setElementOrder: true });
  const deletions = diffMaps(originalMap, modifiedMap, meta, { setElementOrder: true, ignoreChangesAndAdditions: true });
  const patch = mergeMap(deletions, delta, meta, { mergeParallelList: false, ignoreUnmatchedNulls: false });
  if (!overwrite) {
    const changed = diffMaps(originalMap, currentMap, meta, {});
    if (mergingMapsHaveConflicts(patch, changed, meta)) {
      throw new PatchError('Conflict',
        `patch:\n${toYAML(patch)}\nconflicts with changes made from original to current:\n${toYAML(changed)}\n`);
    }
  }
  return patch;
}
