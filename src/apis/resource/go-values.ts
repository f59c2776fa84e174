// A ResourceClaimSpec as kube prints it in "field is immutable" errors: the internal Go struct as
// encoding/json writes it (Go field names, nil slices and pointers as null, no omitempty).
import { GoSyntax } from '../../apimachinery/errors/field-errors.ts';
import { list, obj, str, type Obj } from '../core/pod/spec-access.ts';
import { items } from './validation-kit.ts';

const orNull = (v: unknown): unknown => (v === undefined || v === null ? null : v);
const listOrNull = <T>(v: unknown, f: (o: Obj) => T): T[] | null => (Array.isArray(v) ? items(v).map(f) : null);
const strings = (o: Obj, k: string): unknown => (Array.isArray(o[k]) ? list(o, k) : null);

const selector = (s: Obj): unknown => {
  const cel = obj(s['cel']);
  return { CEL: cel === undefined ? null : { Expression: str(cel, 'expression') } };
};
const toleration = (t: Obj): unknown =>
  ({ Key: str(t, 'key'), Operator: str(t, 'operator'), Value: str(t, 'value'), Effect: str(t, 'effect'), TolerationSeconds: orNull(t['tolerationSeconds']) });
const capacity = (v: unknown): unknown => {
  const c = obj(v);
  return c === undefined ? null : { Requests: orNull(c['requests']) };
};
const exact = (r: Obj): Record<string, unknown> => ({
  DeviceClassName: str(r, 'deviceClassName'), Selectors: listOrNull(r['selectors'], selector), AllocationMode: str(r, 'allocationMode'),
  Count: typeof r['count'] === 'number' ? r['count'] : 0,
});
const request = (r: Obj): unknown => {
  const e = obj(r['exactly']);
  return {
    Name: str(r, 'name'),
    Exactly: e === undefined ? null : { ...exact(e), AdminAccess: orNull(e['adminAccess']), Tolerations: listOrNull(e['tolerations'], toleration), Capacity: capacity(e['capacity']) },
    FirstAvailable: listOrNull(r['firstAvailable'], (s) => ({ Name: str(s, 'name'), ...exact(s), Tolerations: listOrNull(s['tolerations'], toleration), Capacity: capacity(s['capacity']) })),
  };
};
const constraint = (c: Obj): unknown => ({ Requests: strings(c, 'requests'), MatchAttribute: orNull(c['matchAttribute']), DistinctAttribute: orNull(c['distinctAttribute']) });
const config = (c: Obj): unknown => {
  const o = obj(c['opaque']);
  return { Requests: strings(c, 'requests'), Opaque: o === undefined ? null : { Driver: str(o, 'driver'), Parameters: orNull(o['parameters']) } };
};

/** resource.ResourceClaimSpec. */
export function claimSpecGo(spec: unknown): Record<string, unknown> {
  const devices = obj(obj(spec)?.['devices']) ?? {};
  return { Devices: { Requests: listOrNull(devices['requests'], request), Constraints: listOrNull(devices['constraints'], constraint),
    Config: listOrNull(devices['config'], config) } };
}

export const claimSpecValue = (spec: unknown): GoSyntax => new GoSyntax(JSON.stringify(claimSpecGo(spec)));

/** resource.ResourceClaimTemplateSpec: the embedded ObjectMeta is written inline with its JSON names (all omitempty). */
export function templateSpecValue(spec: unknown): GoSyntax {
  const s = obj(spec) ?? {};
  const meta = Object.fromEntries(Object.entries(obj(s['metadata']) ?? {}).filter(([, v]) => v !== null && v !== '' &&
    !(typeof v === 'object' && Object.keys(v as object).length === 0)));
  return new GoSyntax(JSON.stringify({ ...meta, Spec: claimSpecGo(s['spec']) }));
}

const result = (r: Obj): unknown => ({
  Request: str(r, 'request'), Driver: str(r, 'driver'), Pool: str(r, 'pool'), Device: str(r, 'device'), AdminAccess: orNull(r['adminAccess']),
  Tolerations: listOrNull(r['tolerations'], toleration), BindingConditions: strings(r, 'bindingConditions'),
  BindingFailureConditions: strings(r, 'bindingFailureConditions'), ShareID: orNull(r['shareID']), ConsumedCapacity: orNull(r['consumedCapacity']),
});
const allocationConfig = (c: Obj): unknown => {
  const o = obj(c['opaque']);
  return { Source: str(c, 'source'), Requests: strings(c, 'requests'), Opaque: o === undefined ? null : { Driver: str(o, 'driver'), Parameters: orNull(o['parameters']) } };
};
const nodeSelector = (v: unknown): unknown => {
  const sel = obj(v);
  if (sel === undefined) return null;
  const req = (e: Obj): unknown => ({ Key: str(e, 'key'), Operator: str(e, 'operator'), Values: strings(e, 'values') });
  return { NodeSelectorTerms: listOrNull(sel['nodeSelectorTerms'], (t) => ({ MatchExpressions: listOrNull(t['matchExpressions'], req), MatchFields: listOrNull(t['matchFields'], req) })) };
};

/** resource.AllocationResult. */
export function allocationValue(a: Obj): GoSyntax {
  const devices = obj(a['devices']) ?? {};
  return new GoSyntax(JSON.stringify({ Devices: { Results: listOrNull(devices['results'], result), Config: listOrNull(devices['config'], allocationConfig) },
    NodeSelector: nodeSelector(a['nodeSelector']), AllocationTimestamp: orNull(a['allocationTimestamp']) }));
}
