// Loose readers for the parts of a decoded PodSpec that kapi's v1 types leave as records
// (securityContext, affinity, lifecycle, valueFrom, ...). Validation must not throw on a value
// of the wrong JSON type: it reads what is there and lets the checks report the rest.
// No Go counterpart: typed readers for the loosely typed parts of a PodSpec.
import { duplicate, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../../apimachinery/validation/validation.ts';

export type Obj = { readonly [k: string]: unknown };

/** The object under `v`, or undefined (absent, null or not an object). */
export function obj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Obj : undefined;
}
/** The object at `o[k]`. */
export const child = (o: Obj | undefined, k: string): Obj | undefined => obj(o?.[k]);
/** The list at `o[k]` (empty when absent). */
export function list(o: Obj | undefined, k: string): readonly unknown[] {
  const v = o?.[k];
  return Array.isArray(v) ? v : [];
}
/** The objects of the list at `o[k]` (non-objects read as empty objects, as Go's zero structs). */
export const objects = (o: Obj | undefined, k: string): readonly Obj[] => list(o, k).map((v) => obj(v) ?? {});
/** The string at `o[k]`, '' when absent (Go's zero value). */
export function str(o: Obj | undefined, k: string): string {
  const v = o?.[k];
  return typeof v === 'string' ? v : '';
}
/** The string at `o[k]`, or undefined when not set (a Go *string). */
export function optStr(o: Obj | undefined, k: string): string | undefined {
  const v = o?.[k];
  return typeof v === 'string' ? v : undefined;
}
/** The number at `o[k]`, or undefined. */
export function num(o: Obj | undefined, k: string): number | undefined {
  const v = o?.[k];
  return typeof v === 'number' ? v : undefined;
}
export const bool = (o: Obj | undefined, k: string): boolean => o?.[k] === true;
export const has = (o: Obj | undefined, k: string): boolean => o?.[k] !== undefined && o[k] !== null;

export const dns1123Label = (value: string, p: FieldPath): FieldError[] => isDNS1123Label(value).map((m) => invalid(p, value, m));
export const dns1123Subdomain = (value: string, p: FieldPath): FieldError[] => isDNS1123Subdomain(value).map((m) => invalid(p, value, m));
export const qualifiedName = (value: string, p: FieldPath): FieldError[] => isQualifiedName(value).map((m) => invalid(p, value, m));


/** Duplicate errors for repeated values, as kube's sets-based checks report them. */
export function duplicates(values: readonly string[], path: (i: number) => FieldPath): FieldError[] {
  const seen = new Set<string>();
  const errs: FieldError[] = [];
  values.forEach((v, i) => {
    if (seen.has(v)) errs.push(duplicate(path(i), v));
    seen.add(v);
  });
  return errs;
}

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
/** validatePullPolicy: of containers and image volumes. */
export function validatePullPolicy(policy: string, p: FieldPath): FieldError[] {
  if (policy === '') return [required(p)];
  return PULL_POLICIES.includes(policy) ? [] : [notSupported(p, policy, PULL_POLICIES)];
}
