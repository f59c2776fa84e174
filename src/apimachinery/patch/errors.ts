// Errors of the strategic merge patch engine (k8s.io/apimachinery/pkg/util/mergepatch and
// strategicpatch), and how kube-apiserver's PATCH handler turns them into a Status
// (interpretStrategicMergePatchError in endpoints/handlers/patch.go).
import { StatusError, type FailureStatus } from '../errors/status-error.ts';
import { goFormat, goTypeName, type JsonObject, type JsonValue } from './json-value.ts';

/** The mergepatch sentinel errors kube compares by identity, plus 'Other' for formatted ones. */
export type PatchErrorKind =
  | 'BadJSONDoc' | 'NoListOfLists' | 'BadPatchFormatForPrimitiveList' | 'BadPatchFormatForRetainKeys'
  | 'BadPatchFormatForSetElementOrderList' | 'PatchContentNotMatchRetainKeys'
  | 'UnsupportedStrategicMergePatchFormat' | 'PreconditionFailed' | 'Conflict' | 'Other';

const SENTINEL_MESSAGES = {
  BadJSONDoc: 'invalid JSON document',
  NoListOfLists: 'lists of lists are not supported',
  BadPatchFormatForPrimitiveList: 'invalid patch format of primitive list',
  BadPatchFormatForRetainKeys: 'invalid patch format of retainKeys',
  BadPatchFormatForSetElementOrderList: 'invalid patch format of setElementOrder list',
  PatchContentNotMatchRetainKeys: "patch content doesn't match retainKeys list",
  UnsupportedStrategicMergePatchFormat: 'strategic merge patch format is not supported',
} as const;

export type SentinelKind = keyof typeof SENTINEL_MESSAGES;

export class PatchError extends Error {
  override readonly name = 'PatchError';
  readonly kind: PatchErrorKind;
  constructor(kind: PatchErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

export function sentinel(kind: SentinelKind): PatchError {
  return new PatchError(kind, SENTINEL_MESSAGES[kind]);
}

export function otherError(message: string): PatchError {
  return new PatchError('Other', message);
}

/** mergepatch.ErrNoMergeKey. */
export function errNoMergeKey(m: JsonObject, key: string): PatchError {
  return otherError(`map: ${goFormat(m)} does not contain declared merge key: ${key}`);
}

/** mergepatch.ErrBadArgType; `expected` is the Go type name the code asserted. */
export function errBadArgType(expected: 'map[string]interface {}' | '[]interface {}', actual: JsonValue | undefined): PatchError {
  return otherError(`expected a ${expected}, but received a ${goTypeName(actual)}`);
}

/** mergepatch.ErrBadPatchType: `%s` of a non-string directive prints Go's bad-verb form. */
export function errBadPatchType(directive: JsonValue | undefined, m: JsonObject): PatchError {
  return otherError(`unknown patch type: ${formatPercentS(directive)} in map: ${goFormat(m)}`);
}

/** fmt's %s of an interface value holding decoded JSON. */
function formatPercentS(v: JsonValue | undefined): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '%!s(<nil>)';
  if (typeof v === 'object') return goFormatPercentS(v);
  return `%!s(${goTypeName(v)}=${goFormat(v)})`;
}

function goFormatPercentS(v: JsonValue): string {
  if (Array.isArray(v)) return `[${v.map((x) => formatPercentS(x)).join(' ')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${formatPercentS(v[k])}`).join(' ')}]`;
  }
  return formatPercentS(v);
}

const BAD_REQUEST_KINDS: ReadonlySet<PatchErrorKind> = new Set<PatchErrorKind>([
  'BadJSONDoc', 'BadPatchFormatForPrimitiveList', 'BadPatchFormatForRetainKeys',
  'BadPatchFormatForSetElementOrderList', 'UnsupportedStrategicMergePatchFormat',
]);

/**
 * The Status kube-apiserver answers when StrategicMergeMapPatch fails: 400 for malformed
 * directives, 422 (generic message, the text is lost as in kube) for lists of lists and retainKeys
 * mismatches, and for everything else the bare error, which ErrorToAPIStatus turns into a 500
 * with an empty reason and the error text as message. A StatusError passes through.
 */
export function interpretStrategicMergePatchError(err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  const base = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' } as const;
  if (!(err instanceof PatchError)) {
    const message = err instanceof Error ? err.message : String(err);
    return new StatusError({ ...base, code: 500, reason: '', message });
  }
  let status: FailureStatus;
  if (BAD_REQUEST_KINDS.has(err.kind)) {
    status = { ...base, code: 400, reason: 'BadRequest', message: err.message };
  } else if (err.kind === 'NoListOfLists' || err.kind === 'PatchContentNotMatchRetainKeys') {
    status = { ...base, code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request', details: {} };
  } else {
    status = { ...base, code: 500, reason: '', message: err.message };
  }
  return new StatusError(status);
}
