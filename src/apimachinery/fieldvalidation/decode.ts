// Decoding of create/update request bodies with field validation, as kube-apiserver's handlers
// do it (k8s.io/apimachinery/pkg/runtime/serializer/json Serializer.Decode + transformDecodeError
// + addStrictDecodingWarnings):
// - malformed JSON/YAML: 400 "the object provided is unrecognized (must be of type K): ... (<summary>)"
// - a value of the wrong JSON type: 400 "K in version "v" cannot be handled as a K: json: cannot unmarshal ..."
// - Strict with unknown/duplicate fields: 400 "... cannot be handled as a K: strict decoding error: unknown field "x", ..."
// - Warn: the same problems become warnings; Ignore: none are looked for.
// Unknown fields are dropped from the decoded object in every mode, as Go's structs drop them.
import { Buffer } from 'node:buffer';
import { newBadRequest, StatusError } from '../errors/status-error.ts';
import { MAX_OBJECT_DEPTH, objectTooDeep, tooDeepMessage } from '../json-depth.ts';
import { definitionForGVK } from '../openapi/definitions.ts';
import type { SchemaNode } from '../openapi/types.ts';
import type { GroupVersionKind } from '../schema/group-version.ts';
import type { FieldValidationDirective } from './directive.ts';
import { ANY, customResourceShape, shapeOf, type Shape } from './shape.ts';
import { scanJSON } from './json-scan.ts';
import { decodeStrictJSON, jsonSyntaxError, JSONSyntaxError } from './strict-json.ts';
import { walkValue } from './walk.ts';
import { yamlToJSON, YAMLConversionError } from './yaml.ts';

export type BodyMediaType = 'json' | 'yaml';

export interface DecodedBody {
  /** The decoded object, unknown fields dropped. */
  readonly obj: unknown;
  /**
   * Warn only: one text per unknown or duplicate field, for `Warning: 299 - "<text>"` headers.
   * Empty with Ignore, and with Strict (which throws instead).
   */
  readonly problems: string[];
  /** The body's apiVersion/kind, defaulted from the endpoint's kind as kube does. */
  readonly gvk: GroupVersionKind;
}

export interface DecodeBodyOptions {
  /**
   * Replaces the built-in schema of the kind: a custom resource's structural schema (its root
   * apiVersion, kind and metadata are always known). null decodes as unstructured: every field
   * is kept, only duplicates are reported.
   */
  readonly schema?: SchemaNode | null;
}

// The Go type the handlers first decode apiVersion/kind into (runtime SimpleMetaFactory).
const META_STRUCT = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

const rootShapes = new Map<string, Shape>();

/** The Shape of a kind's top-level object, or `any` when the kind has no built-in schema. */
export function shapeForGVK(gvk: GroupVersionKind): Shape {
  const name = definitionForGVK(gvk);
  if (name === undefined) return ANY;
  let s = rootShapes.get(name);
  if (s === undefined) {
    s = shapeOf({ $ref: name });
    rootShapes.set(name, s);
  }
  return s;
}

/** handlers.summarizeData: the first 30 bytes of a body, verbatim if it looks like JSON, else hex. */
export function summarizeData(raw: string, maxLength = 30): string {
  const data = Buffer.from(raw, 'utf8');
  if (data.length === 0) return '<empty>';
  if (data[0] === 0x7b) {
    return data.length > maxLength ? `${data.subarray(0, maxLength).toString('utf8')} ...` : raw;
  }
  return data.length > maxLength ? `${data.subarray(0, maxLength).toString('hex')} ...` : data.toString('hex');
}

/** The body's group/version/kind with the endpoint's filled in where missing (gvkWithDefaults). */
function interpret(value: unknown, target: GroupVersionKind): GroupVersionKind | string {
  if (value === null) return { ...target };
  if (typeof value !== 'object' || Array.isArray(value)) {
    const what = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
    return `json: cannot unmarshal ${what} into Go value of type ${META_STRUCT}`;
  }
  const o = value as Record<string, unknown>;
  for (const f of ['apiVersion', 'kind'] as const) {
    const v = o[f];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      const what = Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v === 'object' ? 'object' : typeof v;
      return `json: cannot unmarshal ${what} into Go struct field .${f} of type string`;
    }
  }
  const apiVersion = typeof o['apiVersion'] === 'string' ? o['apiVersion'] : '';
  const parts = apiVersion === '' ? [] : apiVersion.split('/');
  if (parts.length > 2) return `unexpected GroupVersion string: ${apiVersion}`;
  let group = parts.length === 2 ? parts[0] ?? '' : '';
  let version = parts.length === 2 ? parts[1] ?? '' : parts[0] ?? '';
  const kind = typeof o['kind'] === 'string' && o['kind'] !== '' ? o['kind'] : target.kind;
  if (version === '' && group === '') { group = target.group; version = target.version; }
  if (version === '' && group === target.group) version = target.version;
  return { group, version, kind };
}

function unrecognized(target: GroupVersionKind, err: string, raw: string): Error {
  return newBadRequest(`the object provided is unrecognized (must be of type ${target.kind}): ${err} (${summarizeData(raw)})`);
}

/**
 * A well-formed body that does not decode into its kind (a type mismatch, or Strict's unknown and
 * duplicate fields): the 400 the write handlers send, with the decoder's own text in `detail` for
 * the PATCH handler, which reports a patched object's failure as kube does (422 on `patch`).
 */
export class DecodeError extends StatusError {
  readonly detail: string;
  constructor(body: GroupVersionKind, target: GroupVersionKind, detail: string) {
    super(newBadRequest(`${body.kind} in version ${JSON.stringify(body.version)} cannot be handled as a ${target.kind}: ${detail}`).status);
    this.detail = detail;
  }
}

function cannotHandle(body: GroupVersionKind, target: GroupVersionKind, err: string): Error {
  return new DecodeError(body, target, err);
}

/** addStrictDecodingWarnings: a go-yaml "unmarshal errors" text becomes one warning per line. */
function warningsOf(errs: readonly string[]): string[] {
  const out: string[] = [];
  for (const e of errs) {
    const rest = e.startsWith('yaml: unmarshal errors:\n') ? e.slice('yaml: unmarshal errors:\n'.length) : undefined;
    if (rest === undefined) out.push(e);
    else for (const line of rest.split('\n')) out.push(line.trim());
  }
  return out;
}

/**
 * Decodes a create/update body for the endpoint's kind `gvk`.
 * Throws a StatusError (400 BadRequest) for malformed input, type mismatches, and, with Strict,
 * unknown or duplicate fields; with Warn those come back as warnings.
 */
export function decodeBody(raw: string, mediaType: BodyMediaType, gvk: GroupVersionKind,
  directive: FieldValidationDirective, opts: DecodeBodyOptions = {}): DecodedBody {
  let shape = opts.schema === null ? ANY : opts.schema !== undefined ? customResourceShape(opts.schema) : shapeForGVK(gvk);
  const strict = directive !== 'Ignore';
  let value: unknown;
  let problems: string[] = [];
  let typeError: string | undefined;
  // The strict decoder measures the depth; values from JSON.parse and YAML are measured below.
  let depth: number | undefined;

  if (mediaType === 'yaml') {
    let conv;
    try {
      conv = yamlToJSON(raw, strict);
    } catch (err) {
      if (err instanceof YAMLConversionError) throw unrecognized(gvk, err.message, raw);
      throw err;
    }
    value = conv.value;
    if (conv.duplicateError !== undefined) problems.push(conv.duplicateError);
  } else if (!strict) {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      throw unrecognized(gvk, `couldn't get version/kind; json parse error: ${jsonSyntaxError(raw) ?? 'unexpected end of JSON input'}`, raw);
    }
  } else {
    try {
      const r = decodeStrictJSON(raw, shape);
      value = r.value;
      problems = [...r.strictErrors];
      typeError = r.typeError;
      depth = r.depth;
    } catch (err) {
      if (err instanceof JSONSyntaxError) throw unrecognized(gvk, `couldn't get version/kind; json parse error: ${err.message}`, raw);
      throw err;
    }
  }

  // The decoders stop a little deeper than kapi stores (JSON.parse at no depth at all).
  if ((depth === undefined || depth > MAX_OBJECT_DEPTH) && objectTooDeep(value)) {
    const scan = mediaType === 'json' && !strict ? scanJSON(raw) : undefined;
    if (scan?.error !== undefined) throw unrecognized(gvk, `couldn't get version/kind; json parse error: ${scan.error}`, raw);
    throw newBadRequest(tooDeepMessage('the object'));
  }

  const body = interpret(value, gvk);
  if (typeof body === 'string') throw unrecognized(gvk, `couldn't get version/kind; json parse error: ${body}`, raw);
  if (value === null) value = {};

  // Go decodes into the type the body names; converting to the endpoint's kind comes later
  // (and fails there, in the caller, when the kinds differ).
  if (opts.schema === undefined && (body.group !== gvk.group || body.version !== gvk.version || body.kind !== gvk.kind)) {
    if (definitionForGVK(body) === undefined) return { obj: value, problems: [], gvk: body };
    shape = shapeForGVK(body);
    if (mediaType === 'json' && strict) {
      const r = decodeStrictJSON(raw, shape);
      value = r.value;
      problems = [...r.strictErrors];
      typeError = r.typeError;
    }
  }

  if (mediaType === 'yaml' || !strict) {
    const w = walkValue(value, shape, true);
    typeError = w.typeError;
    if (strict) problems.push(...w.unknownFields);
  }
  if (typeError !== undefined) throw cannotHandle(body, gvk, typeError);
  if (directive === 'Strict' && problems.length > 0) {
    throw cannotHandle(body, gvk, `strict decoding error: ${problems.join(', ')}`);
  }
  return { obj: value, problems: directive === 'Warn' ? warningsOf(problems) : [], gvk: body };
}
