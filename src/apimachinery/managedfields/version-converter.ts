// Managers recorded at another apiVersion of the kind are compared in their own version, as
// structured-merge-diff's merge.Converter does: kube's versionConverter converts the objects (for a
// CRD converting by webhook, through the webhook) and types them with that version's schema.
// kapi's field manager is synchronous and a webhook is not: `withConversions` runs it with a
// converter that answers from a memo and, on a miss, stops the run (ConversionPending), makes the
// conversion and runs it again. A run is a pure function of its inputs, so each rerun goes one
// conversion further; a write needs a handful (one or two per version managers were recorded in).
// Counterpart of k8s.io/apimachinery/pkg/util/managedfields/internal/versionconverter.go.
import { isKubeObject, type KubeObject, type Unstructured } from '../meta/types.ts';
import type { SchemaNode } from '../openapi/index.ts';
import type { JsonObject, JsonValue } from '../patch/json-value.ts';
import { rootType, type TypeRef } from './type-ref.ts';

/** A conversion that failed; its message is the converter's (kube's webhook texts). */
export class ConversionError extends Error {
  override readonly name = 'ConversionError';
}

/** An object in a version of its kind, with that version's type. */
export interface Versioned {
  readonly object: JsonValue;
  readonly type: TypeRef;
}

/** What the updater converts with (merge.Converter). */
export interface VersionConverter {
  /**
   * `obj` converted to `apiVersion` (returned as it is when already there) with that version's
   * type; undefined when the kind has no such version (IsMissingVersionError: its managers are
   * dropped). Throws ConversionError when the conversion fails.
   */
  convert(obj: JsonValue, apiVersion: string): Versioned | undefined;
}

/** How a kind converts between its versions when that may call out (a CRD's conversion webhook). */
export interface AsyncVersionConverter {
  /** `obj` converted to `apiVersion`. Rejects with an Error (a StatusError) whose message says why. */
  convert(obj: KubeObject, apiVersion: string): Promise<KubeObject>;
  /** The schema fields are typed with in `apiVersion`: null when the kind has no such version, undefined when it has no schema. */
  schemaOf(apiVersion: string): SchemaNode | undefined | null;
}

/** Thrown by withConversions' converter on a memo miss; never escapes withConversions. */
class ConversionPending extends Error {
  override readonly name = 'ConversionPending';
  constructor(readonly key: string, readonly obj: KubeObject, readonly apiVersion: string) {
    super(`conversion to ${apiVersion} pending`);
  }
}

/** Every step of a run may convert a few objects: far more reruns than this is a bug, not a write. */
const MAX_CONVERSIONS = 256;

const asJson = (o: KubeObject | Unstructured): JsonValue => o as JsonObject;

const apiVersionOf = (v: JsonValue): string | undefined => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const av = v['apiVersion'];
  return typeof av === 'string' ? av : undefined;
};

/**
 * Runs `run` with a VersionConverter backed by `async`, converting what it asks for between
 * reruns. `run` must be a pure function of what it closes over; its other errors pass through.
 */
export async function withConversions<R>(async: AsyncVersionConverter, run: (c: VersionConverter) => R): Promise<R> {
  const memo = new Map<string, { readonly object: JsonValue } | { readonly error: string }>();
  const types = new Map<string, TypeRef | null>();
  const typeOf = (apiVersion: string): TypeRef | null => {
    let t = types.get(apiVersion);
    if (t === undefined) {
      const schema = async.schemaOf(apiVersion);
      types.set(apiVersion, t = schema === null ? null : rootType(schema));
    }
    return t;
  };
  const converter: VersionConverter = {
    convert(obj, apiVersion) {
      const type = typeOf(apiVersion);
      if (type === null) return undefined;
      if (apiVersionOf(obj) === apiVersion) return { object: obj, type };
      const key = `${apiVersion}\n${JSON.stringify(obj)}`;
      const done = memo.get(key);
      if (done === undefined) {
        if (!isKubeObject(obj)) throw new ConversionError(`an object without metadata cannot be converted to ${apiVersion}`);
        throw new ConversionPending(key, obj, apiVersion);
      }
      if ('error' in done) throw new ConversionError(done.error);
      return { object: done.object, type };
    },
  };
  for (;;) {
    try {
      return run(converter);
    } catch (err) {
      if (!(err instanceof ConversionPending)) throw err;
      if (memo.size >= MAX_CONVERSIONS) throw new Error(`more than ${String(MAX_CONVERSIONS)} conversions for one write`);
      try {
        memo.set(err.key, { object: asJson(await async.convert(err.obj, err.apiVersion)) });
      } catch (cause) {
        memo.set(err.key, { error: cause instanceof Error ? cause.message : String(cause) });
      }
    }
  }
}

/** Whether `err` is withConversions' signal: code that swallows errors must let it through. */
export const isConversionPending = (err: unknown): boolean => err instanceof ConversionPending;
