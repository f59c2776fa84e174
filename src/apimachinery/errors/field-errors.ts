// Field errors collected by validation, as k8s.io/apimachinery/pkg/util/validation/field.
// Validation returns every FieldError it finds; the caller wraps them once in newInvalid.
import { goQuote } from '../goformat/index.ts';

export type FieldErrorType =
  | 'FieldValueNotFound' | 'FieldValueRequired' | 'FieldValueDuplicate' | 'FieldValueInvalid'
  | 'FieldValueNotSupported' | 'FieldValueForbidden' | 'FieldValueTooLong' | 'FieldValueTooMany'
  | 'InternalError' | 'FieldValueTypeInvalid';

const typeText: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Marks a FieldError whose bad value must not be printed. */
export const OMIT_VALUE = Symbol('omitValue');

export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  readonly badValue: unknown;
  readonly detail: string;
}

/** A path to a field: `spec.containers[0].name`, `metadata.labels[app]`. Immutable. */
export class FieldPath {
  private constructor(private readonly text: string) {}
  static root(name: string): FieldPath { return new FieldPath(name); }
  child(name: string, ...more: string[]): FieldPath {
    let t = this.text === '' ? name : `${this.text}.${name}`;
    for (const m of more) t = `${t}.${m}`;
    return new FieldPath(t);
  }
  index(i: number): FieldPath { return new FieldPath(`${this.text}[${i}]`); }
  key(k: string): FieldPath { return new FieldPath(`${this.text}[${k}]`); }
  toString(): string { return this.text; }
}

export function fieldPath(name: string, ...more: string[]): FieldPath {
  return more.reduce((p, m) => p.child(m), FieldPath.root(name));
}

function mk(type: FieldErrorType, path: FieldPath | string, badValue: unknown, detail: string): FieldError {
  return { type, field: String(path), badValue, detail };
}

export const required = (p: FieldPath | string, detail = ''): FieldError => mk('FieldValueRequired', p, '', detail);
export const invalid = (p: FieldPath | string, value: unknown, detail: string): FieldError => mk('FieldValueInvalid', p, value, detail);
export const forbidden = (p: FieldPath | string, detail: string): FieldError => mk('FieldValueForbidden', p, '', detail);
export const duplicate = (p: FieldPath | string, value: unknown): FieldError => mk('FieldValueDuplicate', p, value, '');
export const notFound = (p: FieldPath | string, value: unknown): FieldError => mk('FieldValueNotFound', p, value, '');
export const internalError = (p: FieldPath | string, err: unknown): FieldError =>
  mk('InternalError', p, undefined, err instanceof Error ? err.message : String(err));
export const tooMany = (p: FieldPath | string, actual: number, max: number): FieldError =>
  mk('FieldValueTooMany', p, actual, `must have at most ${max} ${max === 1 ? 'item' : 'items'}`);
export const tooLong = (p: FieldPath | string, value: unknown, max: number): FieldError =>
  mk('FieldValueTooLong', p, value, `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}`);
export const typeInvalid = (p: FieldPath | string, value: unknown, detail: string): FieldError =>
  mk('FieldValueTypeInvalid', p, value, detail);

export function notSupported(p: FieldPath | string, value: unknown, valid: readonly string[]): FieldError {
  const detail = valid.length > 0 ? `supported values: ${valid.map((v) => JSON.stringify(v)).join(', ')}` : '';
  return mk('FieldValueNotSupported', p, value, detail);
}

/**
 * A bad value already written in Go's %#v syntax (structs, maps, IntOrString), printed as is:
 * kube's messages show such values that way (`map[string]string{"app":"web"}`).
 */
export class GoSyntax {
  constructor(readonly text: string) {}
}

/** Formats a bad value the way Go's %v / %q / %#v would for the common cases. */
function formatValue(v: unknown): string {
  if (v instanceof GoSyntax) return v.text;
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v === null || v === undefined) return 'null';
  return JSON.stringify(v);
}

/** The message of a cause: "Invalid value: \"x\": must be ..." (field.Error.ErrorBody). */
export function errorBody(e: FieldError): string {
  const t = typeText[e.type];
  let s: string;
  if (e.type === 'FieldValueRequired' || e.type === 'FieldValueForbidden' || e.type === 'FieldValueTooLong' ||
      e.type === 'InternalError' || e.badValue === OMIT_VALUE) {
    s = t;
  } else {
    s = `${t}: ${formatValue(e.badValue)}`;
  }
  if (e.detail !== '') s += `: ${e.detail}`;
  return s;
}

/** "spec.x: Invalid value: ..." (field.Error.Error). */
export function formatFieldError(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

/** Go's utilerrors.NewAggregate(...).Error(): deduplicated messages, bracketed when several. */
export function aggregateMessages(messages: readonly string[]): string {
  const seen = new Set<string>();
  const uniq: string[] = [];
  for (const m of messages) {
    if (!seen.has(m)) { seen.add(m); uniq.push(m); }
  }
  if (uniq.length === 1) return uniq[0] ?? '';
  return `[${uniq.join(', ')}]`;
}
