// The body of a server-side apply (applyPatcher in Go): decoded the way sigs.k8s.io/yaml's
// Unmarshal fills a map (the last of duplicate keys wins), and checked again strictly after the
// apply succeeded, as kube does, when fieldValidation is Strict or Warn.
import { newBadRequest } from '../../apimachinery/errors/status-error.ts';
import { yamlToJSON, YAMLConversionError } from '../../apimachinery/fieldvalidation/index.ts';
import type { Unstructured } from '../../apimachinery/meta/types.ts';
import type { FieldValidationDirective } from './scope.ts';

export interface ApplyPatchBody {
  readonly object: Unstructured;
  /** sigs.k8s.io/yaml UnmarshalStrict's error, only looked for with Strict and Warn. */
  readonly strictError: string | undefined;
}

// The Go type sigs.k8s.io/yaml unmarshals an apply configuration into.
const MAP_TYPE = 'map[string]interface {}';

function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'number' ? 'number' : 'string';
}

/**
 * Decodes an apply body. Rejects with 400 "error decoding YAML: ..." for malformed YAML or a
 * document that is not a map; the strict problems (duplicate keys) are returned for later.
 */
export function decodeApplyPatch(text: string, directive: FieldValidationDirective): ApplyPatchBody {
  let value: unknown;
  let strictError: string | undefined;
  try {
    const conv = yamlToJSON(text, directive !== 'Ignore');
    value = conv.value;
    if (conv.duplicateError !== undefined) strictError = `error converting YAML to JSON: ${conv.duplicateError}`;
  } catch (err) {
    if (!(err instanceof YAMLConversionError)) throw err;
    throw newBadRequest(`error decoding YAML: error converting YAML to JSON: ${err.message}`);
  }
  // JSON null leaves the map empty, as json.Decoder does.
  if (value === null || value === undefined) return { object: {} as Unstructured, strictError };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw newBadRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${jsonTypeName(value)} into Go value of type ${MAP_TYPE}`);
  }
  return { object: value as Unstructured, strictError };
}

// handlers.parseYAMLWarnings: one warning per line of a go-yaml "unmarshal errors" list.
const YAML_ERROR_PREFIXES = ['yaml: unmarshal errors:\n', 'error converting YAML to JSON: yaml: unmarshal errors:\n'];

/** The Warning texts kube sends for a strict decoding error (addStrictDecodingWarnings). */
function strictDecodingWarnings(err: string): string[] {
  for (const prefix of YAML_ERROR_PREFIXES) {
    if (err.startsWith(prefix)) return err.slice(prefix.length).split('\n').map((s) => s.trim());
  }
  return [err];
}

/**
 * After a successful apply: Strict rejects the body's strict problems with 400
 * "error strict decoding YAML: ...", Warn turns each into a warning.
 */
export function checkStrictApply(body: ApplyPatchBody, directive: FieldValidationDirective, addWarning: (w: string) => void): void {
  if (body.strictError === undefined || directive === 'Ignore') return;
  if (directive === 'Strict') throw newBadRequest(`error strict decoding YAML: ${body.strictError}`);
  for (const w of strictDecodingWarnings(body.strictError)) addWarning(w);
}
