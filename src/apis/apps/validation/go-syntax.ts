// Go's %#v rendering of the few non-scalar values apps validation reports (label maps,
// selectors, IntOrString, strategies). kube's messages embed them verbatim, e.g.
// `Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels``.
// Counterpart of fmt.Sprintf's %#v as pkg/apis/apps/validation uses it.
import { GoSyntax } from '../../../apimachinery/errors/field-errors.ts';
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { IntOrString } from '../../core/v1/types.ts';

const q = (s: string): string => JSON.stringify(s);

/** %#v of a map[string]string: keys sorted, nil when absent. */
export function goStringMap(m: Readonly<Record<string, string>> | null | undefined): string {
  if (m === null || m === undefined) return 'map[string]string(nil)';
  const keys = Object.keys(m).sort();
  return `map[string]string{${keys.map((k) => `${q(k)}:${q(m[k] ?? '')}`).join(', ')}}`;
}

function goStringSlice(v: readonly string[] | undefined): string {
  return v === undefined ? '[]string(nil)' : `[]string{${v.map(q).join(', ')}}`;
}

/** %#v of a metav1.LabelSelector (the value behind spec.selector). */
export function goLabelSelector(s: DeepReadonly<LabelSelector> | null | undefined): string {
  if (s === null || s === undefined) return '<nil>';
  const exprs = s.matchExpressions === undefined ? '[]v1.LabelSelectorRequirement(nil)'
    : `[]v1.LabelSelectorRequirement{${s.matchExpressions.map((e) =>
      `v1.LabelSelectorRequirement{Key:${q(e.key ?? '')}, Operator:${q(String(e.operator ?? ''))}, Values:${goStringSlice(e.values)}}`).join(', ')}}`;
  return `v1.LabelSelector{MatchLabels:${goStringMap(s.matchLabels)}, MatchExpressions:${exprs}}`;
}

/** %#v of an intstr.IntOrString (Type 0 = Int, 1 = String). */
export function goIntOrString(v: IntOrString | undefined): string {
  if (typeof v === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${q(v)}}`;
  return `intstr.IntOrString{Type:0, IntVal:${v ?? 0}, StrVal:""}`;
}

/** %#v of a struct pointer field: nil, or an address (Go prints the pointer, not the value). */
export function goPointer(type: string, present: boolean): string {
  return present ? `(*${type})(0xc000000000)` : `(*${type})(nil)`;
}

/** A struct {Type, RollingUpdate *T} as the strategy enums report it. */
export function goStrategy(structName: string, rollingType: string, s: { readonly type?: string; readonly rollingUpdate?: unknown } | undefined): GoSyntax {
  return new GoSyntax(`apps.${structName}{Type:${q(s?.type ?? '')}, RollingUpdate:${goPointer(`apps.${rollingType}`, s?.rollingUpdate !== undefined && s.rollingUpdate !== null)}}`);
}

export const goSyntax = (text: string): GoSyntax => new GoSyntax(text);
