// resource.k8s.io/v1beta1 <-> v1 (the hub). Two shapes differ: a v1beta1 DeviceRequest carries
// its single-class fields inline where v1 nests them under `exactly`, and a v1beta1 Device wraps
// its attributes in `basic` where v1 flattens them. Both moves are lossless.
// Counterpart of pkg/apis/resource/v1beta1/conversion.go.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { KindConversion } from '../../registry/rest/group.ts';
import { setKey } from '../../apimachinery/patch/index.ts';

type JSONObject = Record<string, unknown>;

const EXACT_FIELDS = ['deviceClassName', 'selectors', 'allocationMode', 'count', 'adminAccess', 'tolerations', 'capacity'];

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const objects = (v: unknown): JSONObject[] => (Array.isArray(v) ? v.filter(isObject) : []);

function requestToV1(r: JSONObject): void {
  const hasExact = EXACT_FIELDS.some((f) => r[f] !== undefined);
  const firstAvailable = objects(r['firstAvailable']);
  if (!hasExact && firstAvailable.length > 0) return;
  const exactly: JSONObject = {};
  for (const f of EXACT_FIELDS) {
    if (r[f] !== undefined) exactly[f] = r[f];
    delete r[f];
  }
  r['exactly'] = exactly;
}

function requestFromV1(r: JSONObject): void {
  const exactly = r['exactly'];
  delete r['exactly'];
  if (!isObject(exactly)) return;
  for (const f of EXACT_FIELDS) if (exactly[f] !== undefined) r[f] = exactly[f];
}

function claimSpecRequests(spec: unknown): JSONObject[] {
  if (!isObject(spec) || !isObject(spec['devices'])) return [];
  return objects(spec['devices']['requests']);
}

function deviceToV1(d: JSONObject): void {
  const basic = d['basic'];
  delete d['basic'];
  if (isObject(basic)) for (const [k, v] of Object.entries(basic)) setKey(d, k, v);
}

function deviceFromV1(d: JSONObject): void {
  const basic: JSONObject = {};
  for (const k of Object.keys(d)) {
    if (k === 'name') continue;
    setKey(basic, k, d[k]);
    delete d[k];
  }
  d['basic'] = basic;
}

const spec = (o: KubeObject): unknown => ('spec' in o ? o.spec : undefined);
const innerSpec = (o: KubeObject): unknown => { const s = spec(o); return isObject(s) ? s['spec'] : undefined; };
const sliceDevices = (o: KubeObject): JSONObject[] => { const s = spec(o); return isObject(s) ? objects(s['devices']) : []; };

const each = (pick: (o: KubeObject) => JSONObject[], fn: (x: JSONObject) => void) => (o: KubeObject): KubeObject => {
  for (const x of pick(o)) fn(x);
  return o;
};

export const resourceV1beta1Conversions: KindConversion[] = [
  { version: 'v1beta1', kind: 'ResourceClaim', toHub: each((o) => claimSpecRequests(spec(o)), requestToV1), fromHub: each((o) => claimSpecRequests(spec(o)), requestFromV1) },
  { version: 'v1beta1', kind: 'ResourceClaimTemplate', toHub: each((o) => claimSpecRequests(innerSpec(o)), requestToV1), fromHub: each((o) => claimSpecRequests(innerSpec(o)), requestFromV1) },
  { version: 'v1beta1', kind: 'ResourceSlice', toHub: each(sliceDevices, deviceToV1), fromHub: each(sliceDevices, deviceFromV1) },
];
