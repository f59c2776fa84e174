// One term of a label selector (labels.Requirement): a key, an operator, and values.
import { aggregateMessages, errorBody, formatFieldError, invalid, notSupported, type FieldError } from '../errors/field-errors.ts';
import { isQualifiedName, isValidLabelValue } from './validation.ts';
import { goStringSlice } from '../goformat/index.ts';

/** selection.Operator values, verbatim. */
export type Operator = '!' | '=' | '==' | 'in' | '!=' | 'notin' | 'exists' | 'gt' | 'lt';

export type Labels = Readonly<Record<string, string>>;

/** Binary operators in the order kube lists them in parse errors. */
export const BINARY_OPERATORS: readonly Operator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const VALID_OPERATORS: readonly Operator[] = [...BINARY_OPERATORS, 'exists', '!'];

/** A selector that could not be parsed or built; the message is kube's, verbatim. */
export class LabelSelectorError extends Error {
  override readonly name = 'LabelSelectorError';
}

/**
 * Field paths are printed as Go prints a nil *field.Path ("<nil>") when the parser validates a
 * key, and relative to an empty root ("values[0][key]") inside newRequirement.
 */
export const NIL_PATH = '<nil>';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64); undefined when Go would fail. */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

export function validateLabelKey(key: string, path: string): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length === 0 ? undefined : invalid(path, key, errs.join('; '));
}

function validateLabelValue(key: string, value: string, path: string): FieldError | undefined {
  const errs = isValidLabelValue(value);
  return errs.length === 0 ? undefined : invalid(`${path}[${key}]`, value, errs.join('; '));
}


function formatError(e: FieldError): string {
  if (!Array.isArray(e.badValue)) return formatFieldError(e);
  const body = errorBody({ ...e, badValue: '' }).replace(/^Invalid value: ""/, `Invalid value: ${goStringSlice(e.badValue.length === 0 ? undefined : e.badValue as string[])}`);
  return `${e.field}: ${body}`;
}

/** utilerrors aggregate message of a field.ErrorList. */
export function fieldErrorsMessage(errs: readonly FieldError[]): string {
  return aggregateMessages(errs.map(formatError));
}

export class Requirement {
  constructor(readonly key: string, readonly operator: Operator, readonly values: readonly string[]) {}

  /** Whether the labels satisfy this term; a missing key satisfies only !, != and notin. */
  matches(labels: Labels): boolean {
    const has = Object.hasOwn(labels, this.key);
    const value = has ? (labels[this.key] ?? '') : '';
    switch (this.operator) {
      case 'in': case '=': case '==':
        return has && this.values.includes(value);
      case 'notin': case '!=':
        return !has || !this.values.includes(value);
      case 'exists':
        return has;
      case '!':
        return !has;
      case 'gt': case 'lt': {
        if (!has || this.values.length !== 1) return false;
        const actual = parseInt64(value);
        const bound = parseInt64(this.values[0] ?? '');
        if (actual === undefined || bound === undefined) return false;
        return this.operator === 'gt' ? actual > bound : actual < bound;
      }
    }
  }

  /** Requirement.String: `!k`, `k`, `k=v`, `k in (a,b)` with several values sorted. */
  toString(): string {
    let s = this.operator === '!' ? `!${this.key}` : this.key;
    switch (this.operator) {
      case '=': s += '='; break;
      case '==': s += '=='; break;
      case '!=': s += '!='; break;
      case 'in': s += ' in '; break;
      case 'notin': s += ' notin '; break;
      case 'gt': s += '>'; break;
      case 'lt': s += '<'; break;
      case 'exists': case '!': return s;
    }
    const vals = this.values.length === 1 ? (this.values[0] ?? '') : [...this.values].sort().join(',');
    return this.operator === 'in' || this.operator === 'notin' ? `${s}(${vals})` : s + vals;
  }
}

/**
 * labels.NewRequirement: validates the key, the operator's arity and every value.
 * Throws a LabelSelectorError whose message aggregates every field error.
 */
export function newRequirement(key: string, operator: Operator, values: readonly string[], path = ''): Requirement {
  const errs: FieldError[] = [];
  const child = (name: string): string => (path === '' ? name : `${path}.${name}`);
  const keyErr = validateLabelKey(key, child('key'));
  if (keyErr !== undefined) errs.push(keyErr);
  const valuePath = child('values');
  switch (operator) {
    case 'in': case 'notin':
      if (values.length === 0) errs.push(invalid(valuePath, values, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=': case '==': case '!=':
      if (values.length !== 1) errs.push(invalid(valuePath, values, 'exact-match compatibility requires one single value'));
      break;
    case 'exists': case '!':
      if (values.length !== 0) errs.push(invalid(valuePath, values, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt': case 'lt':
      if (values.length !== 1) errs.push(invalid(valuePath, values, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          errs.push(invalid(`${valuePath}[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      });
      break;
    default:
      errs.push(notSupported(child('operator'), operator, VALID_OPERATORS));
  }
  values.forEach((v, i) => {
    const e = validateLabelValue(key, v, `${valuePath}[${i}]`);
    if (e !== undefined) errs.push(e);
  });
  if (errs.length > 0) throw new LabelSelectorError(fieldErrorsMessage(errs));
  return new Requirement(key, operator, [...values]);
}
