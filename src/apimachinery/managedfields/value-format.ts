// How structured-merge-diff's validation errors print an applied value (a value.Value holding
// decoded JSON, *valueUnstructured): %v as "&{...}", %#v as "&value.valueUnstructured{Value:...}",
// and %T of the value inside.
import { goQuote } from '../goformat/index.ts';
import { compareGoStrings, goFloat, goFormat, isJsonObject } from '../patch/json-value.ts';
import type { JsonValue } from '../patch/json-value.ts';

/** fmt's %v of the value. */
export function formatValue(v: JsonValue): string {
  return `&{${goFormat(v)}}`;
}

function goSyntax(v: JsonValue): string {
  if (v === null) return 'interface {}(nil)';
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  if (isJsonObject(v)) {
    const keys = Object.keys(v).sort(compareGoStrings);
    return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSyntax(v[k] ?? null)}`).join(', ')}}`;
  }
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  return String(v);
}

/** fmt's %#v of the value. */
export function formatValueGoSyntax(v: JsonValue): string {
  return `&value.valueUnstructured{Value:${goSyntax(v)}}`;
}

/** fmt's %T of the value inside. */
export function goTypeOf(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (isJsonObject(v)) return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}
