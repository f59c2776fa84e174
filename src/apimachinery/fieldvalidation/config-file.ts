// The text of a component configuration file (AdmissionConfiguration, AuthenticationConfiguration,
// ...) decoded as kube's strict codec reads it: JSON when it starts with `{`, else YAML, with kube's
// messages for text that is neither; a duplicate key is reported for the caller to word.
// Counterpart of k8s.io/apimachinery/pkg/runtime/serializer/json (strict decoding of files).
import { decodeStrictJSON, JSONSyntaxError } from './strict-json.ts';
import { yamlToJSON, YAMLConversionError } from './yaml.ts';

export interface ConfigFileValue {
  /** What the text holds. */
  readonly value: unknown;
  /** The decoded object; {} when the text holds no object. */
  readonly obj: Record<string, unknown>;
  readonly duplicateError?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Throws an Error with kube's message when the text is no JSON or YAML. */
export function decodeConfigFile(text: string): ConfigFileValue {
  let value: unknown;
  let duplicateError: string | undefined;
  try {
    if (text.trimStart().startsWith('{')) value = decodeStrictJSON(text, { kind: 'any', goName: 'interface {}' }, false).value;
    else ({ value, duplicateError } = yamlToJSON(text, true));
  } catch (err) {
    if (err instanceof YAMLConversionError) throw new Error(err.message);
    if (err instanceof JSONSyntaxError) throw new Error(`couldn't get version/kind; json parse error: ${err.message}`);
    throw err;
  }
  return { value, obj: isObject(value) ? value : {}, ...(duplicateError !== undefined ? { duplicateError } : {}) };
}
