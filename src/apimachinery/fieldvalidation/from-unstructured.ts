// The first error kube's unstructured converter (runtime.DefaultUnstructuredConverter.
// FromUnstructured) meets turning a decoded map into the Go type: a strategic merge patch's
// result goes through it, not through encoding/json, so its type errors read differently
// ("cannot restore map from string" where a JSON decode says "json: cannot unmarshal string
// into Go struct field ...").
import type { Shape } from './shape.ts';

/**
 * The reflect.Kind a decoded JSON value has in Go: apimachinery's JSON decoding gives int64 to
 * integers and float64 to other numbers.
 */
function goKind(v: unknown): 'string' | 'int64' | 'float64' | 'bool' | 'map' | 'slice' {
  if (Array.isArray(v)) return 'slice';
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? 'int64' : 'float64';
    case 'boolean': return 'bool';
    default: return 'map';
  }
}

const isInt = (goName: string): boolean => goName === 'int32' || goName === 'int64';
const isFloat = (goName: string): boolean => goName === 'float32' || goName === 'float64';

/** fromUnstructured's simple-type branch: what converts, what is "cannot convert", what is unrecognized. */
function scalarError(v: unknown, goName: string): string | undefined {
  const src = goKind(v);
  switch (src) {
    case 'string':
      return goName === 'string' ? undefined : `unrecognized type: ${goName}`;
    case 'bool':
      return goName === 'bool' ? undefined : `unrecognized type: ${goName}`;
    case 'int64':
      if (isInt(goName) || isFloat(goName)) return undefined;
      // Go converts integers to strings (as runes), so this one is convertible but refused.
      return goName === 'string' ? 'cannot convert int64 to string' : `unrecognized type: ${goName}`;
    case 'float64':
      if (isFloat(goName)) return undefined;
      if (isInt(goName)) return Number.isInteger(v) ? undefined : `cannot convert float64 to ${goName}`;
      return `unrecognized type: ${goName}`;
    default:
      return `unrecognized type: ${goName}`;
  }
}

/**
 * The converter's first error for `value` against `shape`, or undefined when it converts.
 * Fields are visited in the value's key order (Go visits struct fields in declaration order and
 * map keys at random, so with several errors kube's pick may differ).
 */
export function fromUnstructuredError(value: unknown, shape: Shape): string | undefined {
  if (value === null || value === undefined) return undefined;
  switch (shape.kind) {
    case 'any':
      return undefined;
    case 'opaque':
      // Types with their own UnmarshalJSON get the value re-encoded as JSON.
      return shape.check?.(value);
    case 'scalar':
      // a []byte field holds its base64 text
      if (shape.check !== undefined && typeof value === 'string') return shape.check(value);
      return scalarError(value, shape.goName);
    case 'map': {
      const k = goKind(value);
      if (k !== 'map') return `cannot restore map from ${k}`;
      const valueShape = shape.value();
      for (const v of Object.values(value as Record<string, unknown>)) {
        const err = fromUnstructuredError(v, valueShape);
        if (err !== undefined) return err;
      }
      return undefined;
    }
    case 'slice': {
      const k = goKind(value);
      if (k !== 'slice') return `cannot restore slice from ${k}`;
      const elem = shape.elem();
      for (const v of value as unknown[]) {
        const err = fromUnstructuredError(v, elem);
        if (err !== undefined) return err;
      }
      return undefined;
    }
    case 'struct': {
      const k = goKind(value);
      if (k !== 'map') return `cannot restore struct from: ${k}`;
      for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
        const field = shape.fields(key);
        if (field === undefined) continue;
        const err = fromUnstructuredError(v, field);
        if (err !== undefined) return err;
      }
      return undefined;
    }
  }
}
