// A PersistentVolumeClaim spec as the Go value kube compares on update (the internal
// core.PersistentVolumeClaimSpec, decoded from JSON), for apiequality.Semantic.DeepEqual and for
// the cmp.Diff that kube prints when the spec changed where it may not.
import type { GoField, GoValue } from '../../../apimachinery/goformat/index.ts';
import { goDiff } from '../go-types/go-json.ts';
import { goParseQuantity } from '../../../apimachinery/resource/quantity.ts';
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
const QUANTITY_VALUES = new WeakMap<GoValue, bigint>();
const quantityEqual = (x: GoValue, y: GoValue): boolean => QUANTITY_VALUES.get(x) === QUANTITY_VALUES.get(y);

/** inf.Dec's String(): the unscaled digits with the decimal point `-exponent` places from the right. */
function decString(unscaled: bigint, exponent: number): string {
  const sign = unscaled < 0n ? '-' : '';
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString();
  if (exponent >= 0) return `${sign}${digits}${'0'.repeat(exponent)}`;
  const padded = digits.padStart(-exponent + 1, '0');
  return `${sign}${padded.slice(0, exponent)}.${padded.slice(exponent)}`;
}

/**
 * resource.Quantity as ParseQuantity leaves it: an int64Amount {value, scale} on the fast path,
 * with the input cached in `s` only when it is already in canonical form; an inf.Dec otherwise.
 */
export function quantityValue(q: string | number): GoValue {
  const r = goParseQuantity(typeof q === 'number' ? String(q) : q.trim());
  const parsed = 'error' in r ? undefined : r;
  const amount = parsed?.amount;
  const i = amount !== undefined && 'int64' in amount
    ? struct('resource.int64Amount', [['value', int(Number(amount.int64))], ['scale', int(amount.scale)]])
    : struct('resource.int64Amount', [['value', int(0)], ['scale', int(0)]]);
  const dec = amount === undefined || 'int64' in amount ? ptr(null)
    : ptr({ kind: 'string', value: decString(amount.unscaled, amount.exponent), stringer: true });
  const out: GoValue = {
    kind: 'struct', type: 'resource.Quantity', equal: quantityEqual,
    fields: [{ name: 'i', value: i }, { name: 'd', value: struct('resource.infDecAmount', [['Dec', dec]]) },
      { name: 's', value: str(parsed?.cached ?? '') }, { name: 'Format', value: str(parsed?.quantity.format ?? 'DecimalSI') }],
  };
  QUANTITY_VALUES.set(out, parsed?.quantity.nano ?? 0n);
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

/** util/diff.Diff of two claim specs: the internal core.PersistentVolumeClaimSpec as encoding/json writes it. */
export function pvcSpecDiff(prev: RO<PersistentVolumeClaimSpec> | undefined, next: RO<PersistentVolumeClaimSpec> | undefined): string {
  return goDiff(prev ?? {}, next ?? {}, 'PersistentVolumeClaimSpec');
}
