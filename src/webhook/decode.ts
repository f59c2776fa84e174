// A webhook's answer as client-go's REST client decodes it (the universal deserializer): JSON
// when the body starts with `{`, YAML otherwise, and kube's texts when it is no object.
// No single Go counterpart: the recognizing decoder of k8s.io/apimachinery/pkg/runtime/serializer
// and the json serializer's kind lookup (`couldn't get version/kind; json parse error: ...`).
import { jsonSyntaxError, yamlToJSON, YAMLConversionError } from '../apimachinery/fieldvalidation/index.ts';
import { goJSONKind } from '../apimachinery/validation/go-json.ts';

const TYPE_META_STRUCT = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The object of a 2xx answer (null reads as an empty object, as Go decodes it). Throws with the
 * decoder's words for broken JSON, malformed YAML and values that are no object.
 */
export function decodeWebhookObject(body: string): Record<string, unknown> {
  let v: unknown;
  if (/^\s*\{/.test(body)) {
    const err = jsonSyntaxError(body);
    if (err !== undefined) throw new Error(`couldn't get version/kind; json parse error: ${err}`);
    v = JSON.parse(body) as unknown;
  } else {
    try {
      v = yamlToJSON(body, false).value;
    } catch (e) {
      if (e instanceof YAMLConversionError) throw new Error(e.message, { cause: e });
      throw e;
    }
  }
  if (v === null || v === undefined) return {};
  if (!isObj(v)) throw new Error(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goJSONKind(v)} into Go value of type ${TYPE_META_STRUCT}`);
  return v;
}
