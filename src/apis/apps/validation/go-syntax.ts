// How kube v1.36 prints the non-scalar bad values of apps validation: field.Error renders any value
// that is not a string, number or bool with encoding/json, so label maps come out with sorted keys,
// selectors and IntOrString with their JSON tags (`{"matchLabels":{"app":"a"}}`, `0`, `"50%"`), and
// internal structs without tags (the strategies) with their Go field names
// (`{"Type":"Bogus","RollingUpdate":null}`).
import { GoSyntax } from '../../../apimachinery/errors/field-errors.ts';
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import { goEscapeJSON } from '../../../apimachinery/runtime/serializer/json.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { IntOrString } from '../../core/v1/types.ts';

/** json.Marshal of a JSON value: Go escapes <, > and & in strings. */
export const goJSON = (v: unknown): string => goEscapeJSON(JSON.stringify(v) ?? 'null');

const sortedMap = (m: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k] ?? '']));

/** A map[string]string: keys sorted, null when nil. */
export function goStringMap(m: Readonly<Record<string, string>> | null | undefined): string {
  return m === null || m === undefined ? 'null' : goJSON(sortedMap(m));
}

/** A *metav1.LabelSelector: its JSON tags, empty maps and lists left out (omitempty). */
export function goLabelSelector(s: DeepReadonly<LabelSelector> | null | undefined): string {
  if (s === null || s === undefined) return 'null';
  const out: Record<string, unknown> = {};
  if (Object.keys(s.matchLabels ?? {}).length > 0) out['matchLabels'] = sortedMap(s.matchLabels ?? {});
  if ((s.matchExpressions ?? []).length > 0) {
    out['matchExpressions'] = (s.matchExpressions ?? []).map((e) => ({
      key: e.key ?? '', operator: e.operator ?? '', ...((e.values ?? []).length > 0 ? { values: e.values } : {}),
    }));
  }
  return goJSON(out);
}

/** An intstr.IntOrString: its number or its string. */
export function goIntOrString(v: IntOrString | undefined): string {
  return goJSON(v ?? 0);
}

/** A strategy struct {Type, RollingUpdate *T}, T given by the Go names of its fields (internal types have no JSON tags). */
export function goStrategy(s: { readonly type?: string; readonly rollingUpdate?: unknown } | undefined,
  rolling: (ru: Readonly<Record<string, unknown>>) => string): GoSyntax {
  const ru = s?.rollingUpdate;
  const ruText = ru === undefined || ru === null ? 'null' : rolling(ru as Readonly<Record<string, unknown>>);
  return new GoSyntax(`{"Type":${goJSON(s?.type ?? '')},"RollingUpdate":${ruText}}`);
}

/** An internal RollingUpdate{MaxUnavailable, MaxSurge IntOrString} (Deployments and DaemonSets). */
export const goRollingUpdate = (ru: Readonly<Record<string, unknown>>): string =>
  `{"MaxUnavailable":${goIntOrString(ru['maxUnavailable'] as IntOrString | undefined)},"MaxSurge":${goIntOrString(ru['maxSurge'] as IntOrString | undefined)}}`;

/** The internal RollingUpdateStatefulSetStrategy{Partition int32, MaxUnavailable *IntOrString}. */
export const goStatefulSetRollingUpdate = (ru: Readonly<Record<string, unknown>>): string => {
  const max = ru['maxUnavailable'] as IntOrString | undefined;
  return `{"Partition":${typeof ru['partition'] === 'number' ? ru['partition'] : 0},"MaxUnavailable":${max === undefined ? 'null' : goIntOrString(max)}}`;
};

export const goSyntax = (text: string): GoSyntax => new GoSyntax(text);
