// A PersistentVolumeClaim spec as the Go value kube compares on update (the internal
// core.PersistentVolumeClaimSpec, decoded from JSON), for apiequality.Semantic.DeepEqual and for
// the cmp.Diff that kube prints when the spec changed where it may not.
import type { GoField, GoValue } from '../../../apimachinery/goformat/index.ts';
import { parseQuantity } from '../v1/quantity.ts';
import type { PersistentVolumeClaimSpec, ResourceList } from '../v1/types.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';

type RO<T> = DeepReadonly<T>;

const str = (v: string | undefined | null): GoValue => ({ kind: 'string', value: v ?? '' });
const ptr = (elem: GoValue | null): GoValue => ({ kind: 'ptr', elem });
const strPtr = (v: string | undefined | null): GoValue => ptr(v === undefined || v === null ? null : str(v));
const int = (value: number): GoValue => ({ kind: 'int', value });
const struct = (type: string, fields: readonly (readonly [string, GoValue])[]): GoValue =>
  ({ kind: 'struct', type, fields: fields.map(([name, value]): GoField => ({ name, value })) });
const stringSlice = (type: string, v: readonly string[] | undefined | null): GoValue =>
  ({ kind: 'slice', type, elems: v === undefined || v === null ? null : v.map((s) => str(s)) });
const stringMap = (v: RO<Record<string, string>> | undefined | null): GoValue =>
  ({ kind: 'map', type: 'map[string]string', entries: v === undefined || v === null ? null : Object.entries(v).map(([k, s]) => [str(k), str(s)] as const) });

/** The numeric value of each quantity GoValue: what Quantity.Equal compares. */
const QUANTITY_VALUES = new WeakMap<GoValue, number>();
const quantityEqual = (x: GoValue, y: GoValue): boolean => QUANTITY_VALUES.get(x) === QUANTITY_VALUES.get(y);

const SUFFIX_EXPONENTS: Readonly<Record<string, readonly [base: 2 | 10, exponent: number]>> = {
  '': [10, 0], n: [10, -9], u: [10, -6], m: [10, -3], k: [10, 3], M: [10, 6], G: [10, 9], T: [10, 12], P: [10, 15], E: [10, 18],
  Ki: [2, 10], Mi: [2, 20], Gi: [2, 30], Ti: [2, 40], Pi: [2, 50], Ei: [2, 60],
};

/**
 * resource.Quantity as ParseQuantity leaves it: an int64Amount {value, scale} on the fast path,
 * with the input cached in `s` only when it is already in canonical form; a decimal otherwise.
 */
export function quantityValue(q: string | number): GoValue {
  const text = typeof q === 'number' ? String(q) : q.trim();
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(text);
  const sign = m?.[1] ?? '';
  const num = m?.[2] ?? '';
  const denom = m?.[3] ?? '';
  const suffix = m?.[4] ?? '';
  let format = 'DecimalSI';
  let base: 2 | 10 = 10;
  let exponent = 0;
  const known = SUFFIX_EXPONENTS[suffix];
  if (known !== undefined) {
    [base, exponent] = known;
    if (base === 2) format = 'BinarySI';
  } else if (/^[eE][+-]?[0-9]+$/.test(suffix)) {
    format = 'DecimalExponent';
    exponent = Number(suffix.slice(1));
  }
  let scale = 0;
  let mantissa = 1;
  let precision: number;
  if (base === 10) {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  } else if (exponent >= 0 && denom.length === 0) {
    mantissa = 2 ** exponent;
    precision = 15 - num.length - Math.trunc(exponent * 3 / 10) - 1;
  } else {
    precision = -1;
  }
  const numeric = parseQuantity(text) ?? 0;
  let i = struct('resource.int64Amount', [['value', int(0)], ['scale', int(0)]]);
  let d = struct('resource.infDecAmount', [['Dec', ptr({ kind: 'string', value: String(numeric), stringer: true })]]);
  let cached = '';
  const shifted = num + denom;
  const value = Number(shifted);
  if (precision >= 0 && scale - denom.length >= -9 && shifted !== '' && Number.isSafeInteger(value * mantissa)) {
    scale -= denom.length;
    i = struct('resource.int64Amount', [['value', int(sign === '-' ? -value * mantissa : value * mantissa)], ['scale', int(scale)]]);
    d = struct('resource.infDecAmount', [['Dec', ptr(null)]]);
    const canonical = format === 'BinarySI'
      ? exponent % 10 === 0 && (value & 0x07) !== 0
      : scale % 3 === 0 && !shifted.endsWith('000') && !shifted.startsWith('0');
    if (canonical) cached = text;
  }
  const out: GoValue = {
    kind: 'struct', type: 'resource.Quantity', equal: quantityEqual,
    fields: [{ name: 'i', value: i }, { name: 'd', value: d }, { name: 's', value: str(cached) }, { name: 'Format', value: str(format) }],
  };
  QUANTITY_VALUES.set(out, numeric);
  return out;
}

function resourceList(v: RO<ResourceList> | undefined | null): GoValue {
  return {
    kind: 'map', type: 'core.ResourceList',
    entries: v === undefined || v === null ? null
      : Object.entries(v).map(([k, q]) => [{ kind: 'string', value: k, stringer: true }, quantityValue(q as string | number)] as const),
  };
}

function labelSelector(sel: RO<Record<string, unknown>> | undefined | null): GoValue {
  if (sel === undefined || sel === null) return ptr(null);
  const exprs = sel['matchExpressions'] as readonly { key?: string; operator?: string; values?: readonly string[] }[] | undefined | null;
  return ptr(struct('v1.LabelSelector', [
    ['MatchLabels', stringMap(sel['matchLabels'] as Record<string, string> | undefined)],
    ['MatchExpressions', {
      kind: 'slice', type: '[]v1.LabelSelectorRequirement',
      elems: exprs === undefined || exprs === null ? null
        : exprs.map((e) => struct('v1.LabelSelectorRequirement', [['Key', str(e.key)], ['Operator', str(e.operator)], ['Values', stringSlice('[]string', e.values)]])),
    }],
  ]));
}

/** The internal core.PersistentVolumeClaimSpec of a v1 spec. */
export function pvcSpecValue(spec: RO<PersistentVolumeClaimSpec> | undefined): GoValue {
  const s = spec ?? {};
  const ds = s.dataSource;
  const dsr = s.dataSourceRef;
  return struct('core.PersistentVolumeClaimSpec', [
    ['AccessModes', stringSlice('[]core.PersistentVolumeAccessMode', s.accessModes)],
    ['Selector', labelSelector(s.selector as RO<Record<string, unknown>> | undefined)],
    ['Resources', struct('core.VolumeResourceRequirements', [['Limits', resourceList(s.resources?.limits)], ['Requests', resourceList(s.resources?.requests)]])],
    ['VolumeName', str(s.volumeName)],
    ['StorageClassName', strPtr(s.storageClassName)],
    ['VolumeMode', strPtr(s.volumeMode)],
    ['DataSource', ds === undefined || ds === null ? ptr(null)
      : ptr(struct('core.TypedLocalObjectReference', [['APIGroup', strPtr(ds.apiGroup)], ['Kind', str(ds.kind)], ['Name', str(ds.name)]]))],
    ['DataSourceRef', dsr === undefined || dsr === null ? ptr(null)
      : ptr(struct('core.TypedObjectReference', [['APIGroup', strPtr(dsr.apiGroup)], ['Kind', str(dsr.kind)], ['Name', str(dsr.name)], ['Namespace', strPtr(dsr.namespace)]]))],
    ['VolumeAttributesClassName', strPtr(s.volumeAttributesClassName)],
  ]);
}

/** apiequality.Semantic.DeepEqual: nil and empty slices and maps are equal, quantities by value. */
export function semanticEqual(x: GoValue, y: GoValue): boolean {
  switch (x.kind) {
    case 'string': case 'int': case 'bool':
      return y.kind === x.kind && y.value === x.value;
    case 'ptr':
      if (y.kind !== 'ptr') return false;
      if (x.elem === null || y.elem === null) return x.elem === y.elem;
      return semanticEqual(x.elem, y.elem);
    case 'struct':
      if (y.kind !== 'struct') return false;
      if (x.equal !== undefined) return x.equal(x, y);
      return x.fields.every((f, i) => {
        const o = y.fields[i];
        return o !== undefined && semanticEqual(f.value, o.value);
      });
    case 'slice': {
      if (y.kind !== 'slice') return false;
      const a = x.elems ?? [];
      const b = y.elems ?? [];
      return a.length === b.length && a.every((e, i) => semanticEqual(e, b[i] as GoValue));
    }
    case 'map': {
      if (y.kind !== 'map') return false;
      const a = x.entries ?? [];
      const b = y.entries ?? [];
      if (a.length !== b.length) return false;
      return a.every(([k, v]) => {
        const o = b.find(([kk]) => kk.kind === k.kind && (kk as { value: unknown }).value === (k as { value: unknown }).value);
        return o !== undefined && semanticEqual(v, o[1]);
      });
    }
  }
}

const sortedMap = (m: RO<Record<string, unknown>> | undefined | null): Record<string, unknown> | null =>
  m === undefined || m === null ? null : Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]]));
const orNull = <T>(v: T | undefined | null): T | null => (v === undefined || v === null ? null : v);

/**
 * The internal core.PersistentVolumeClaimSpec as encoding/json writes it (Go field names, nil as
 * null, maps sorted; the selector keeps its JSON tags): what kube's util/diff.Diff compares.
 */
export function pvcSpecJSON(spec: RO<PersistentVolumeClaimSpec> | undefined): Record<string, unknown> {
  const s = spec ?? {};
  const ds = s.dataSource;
  const dsr = s.dataSourceRef;
  return {
    AccessModes: orNull(s.accessModes),
    Selector: orNull(s.selector),
    Resources: { Limits: sortedMap(s.resources?.limits), Requests: sortedMap(s.resources?.requests) },
    VolumeName: s.volumeName ?? '',
    StorageClassName: orNull(s.storageClassName),
    VolumeMode: orNull(s.volumeMode),
    DataSource: ds === undefined || ds === null ? null : { APIGroup: orNull(ds.apiGroup), Kind: ds.kind ?? '', Name: ds.name ?? '' },
    DataSourceRef: dsr === undefined || dsr === null ? null
      : { APIGroup: orNull(dsr.apiGroup), Kind: dsr.kind ?? '', Name: dsr.name ?? '', Namespace: orNull(dsr.namespace) },
    VolumeAttributesClassName: orNull(s.volumeAttributesClassName),
  };
}
