// The JSONPath subset CRDs use in printer columns, scale paths and selectable fields:
// ".spec.a.b", ".status.items[0].x", and a filter "[?(@.type=="Ready")]" on lists.
// Counterpart of k8s.io/client-go/util/jsonpath.
import { setKey } from '../../apimachinery/patch/index.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type Step = { readonly field: string } | { readonly index: number } | { readonly filter: { key: string; value: string } };

export function parsePath(path: string): Step[] | undefined {
  const p = path.trim().replace(/^\{(.*)\}$/, '$1');
  const steps: Step[] = [];
  const re = /\.([A-Za-z0-9_$-]+)|\[(\d+)\]|\[\?\(@\.([A-Za-z0-9_-]+)\s*==\s*["']([^"']*)["']\)\]|\[['"]([^'"]+)['"]\]/y;
  let i = 0;
  while (i < p.length) {
    re.lastIndex = i;
    const m = re.exec(p);
    if (m === null) return undefined;
    if (m[1] !== undefined) steps.push({ field: m[1] });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else if (m[3] !== undefined) steps.push({ filter: { key: m[3], value: m[4] ?? '' } });
    else if (m[5] !== undefined) steps.push({ field: m[5] });
    i = re.lastIndex;
  }
  return steps;
}

/** The value at path, or undefined when any step is missing. */
export function getPath(obj: unknown, path: string): unknown {
  const steps = parsePath(path);
  if (steps === undefined) return undefined;
  let cur: unknown = obj;
  for (const s of steps) {
    // Own members only: a path through "constructor" must not find Object.prototype's.
    if ('field' in s) cur = isObject(cur) && Object.hasOwn(cur, s.field) ? cur[s.field] : undefined;
    else if ('index' in s) cur = Array.isArray(cur) ? cur[s.index] : undefined;
    else cur = Array.isArray(cur) ? cur.find((e) => isObject(e) && Object.hasOwn(e, s.filter.key) && String(e[s.filter.key]) === s.filter.value) : undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Sets the value at a path of fields, creating objects on the way (scale's specReplicasPath). */
export function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const steps = parsePath(path);
  if (steps === undefined || steps.length === 0) return;
  let cur: Record<string, unknown> = obj;
  for (const [i, s] of steps.entries()) {
    if (!('field' in s)) return;
    if (i === steps.length - 1) { setKey(cur, s.field, value); return; }
    const next = Object.hasOwn(cur, s.field) ? cur[s.field] : undefined;
    if (!isObject(next)) setKey(cur, s.field, {});
    cur = cur[s.field] as Record<string, unknown>;
  }
}
