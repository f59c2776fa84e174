// Go zero values: kube's JSON encoder writes a struct field even when it is empty (omitempty
// never drops a struct) and a field without omitempty even at its zero value, so objects read
// back from kube carry `spec: {}`, `metadata: {}`, `value: 0`, `serviceName: ""` where the
// client sent nothing. Definitions fill them in (ResourceDefinition.goZeroValues) before storing.
// Counterpart of encoding/json's omitempty rules over the types of k8s.io/api.

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets `value` (a copy) at `path` when nothing is there and every parent on the way is an object. */
export function setZero(obj: object, path: readonly string[], value: unknown): void {
  let x: unknown = obj;
  for (const p of path.slice(0, -1)) {
    x = isRecord(x) ? x[p] : undefined;
    if (!isRecord(x)) return;
  }
  const last = path[path.length - 1];
  if (last !== undefined && isRecord(x) && x[last] === undefined) x[last] = structuredClone(value);
}
