// Converts custom resources between the versions of a CRD through its conversion webhook: one
// ConversionReview per call (a list is one batch), then kube's checks of what came back (count,
// apiVersion, kind, name/namespace/uid unchanged) and kube's restoring of the metadata (only
// labels and annotations may change). Errors are kube's texts, as 500s of unknown reason.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apiserver/conversion/webhook_converter.go.
import { randomUUID } from 'node:crypto';
import { formatFieldError, fieldPath, aggregateMessages, type FieldError } from '../../apimachinery/errors/field-errors.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { goJSONKind } from '../../apimachinery/validation/go-json.ts';
import { validateAnnotations, validateLabels } from '../../apimachinery/validation/object-meta.ts';
import { unknownError } from '../../registry/generic/storage-errors.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import { clientConfigFromWire, type ClientManager, type WebhookClient } from '../../webhook/index.ts';
import type { CustomResourceDefinition } from '../v1/types.ts';
import { convertedObjectsOf, decodeReview, newReview, reviewVersionFor } from './review.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Converts a CRD's objects to one of its versions. */
export interface CRConverter {
  /**
   * `objs` converted to `apiVersion` (objects already in it are returned as they are), in order.
   * Rejects with a StatusError (500, reason unknown) worded as kube's converter when the webhook
   * fails or answers something invalid.
   */
  convert(objs: readonly KubeObject[], apiVersion: string): Promise<KubeObject[]>;
}

/** Go's %T of a decoded JSON value. */
function goType(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
    default: return 'map[string]interface {}';
  }
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const metaOf = (o: Obj): Obj => (isObj(o['metadata']) ? o['metadata'] : {});
/** GroupVersionKind.String() of an object. */
function gvkText(o: Obj): string {
  const av = str(o['apiVersion']);
  const slash = av.indexOf('/');
  return `${slash < 0 ? '' : av.slice(0, slash)}/${slash < 0 ? av : av.slice(slash + 1)}, Kind=${str(o['kind'])}`;
}
/** GroupVersion.String() of an apiVersion: the version alone for the core group. */
const gvText = (av: string): string => (av.startsWith('/') ? av.slice(1) : av);

/** validateConvertedObject: kind, name, namespace and uid unchanged. */
function convertedObjectError(inp: Obj, out: Obj): string | undefined {
  const a = metaOf(inp);
  const b = metaOf(out);
  const same: [string, unknown, unknown][] = [
    ['kind', inp['kind'], out['kind']], ['name', a['name'], b['name']], ['namespace', a['namespace'], b['namespace']], ['UID', a['uid'], b['uid']],
  ];
  for (const [what, x, y] of same) if (str(x) !== str(y)) return `must have the same ${what}: ${str(x)} != ${str(y)}`;
  return undefined;
}

/**
 * restoreObjectMeta: the converted object gets the original metadata back, but for labels and
 * annotations, which the webhook may change (and which are then validated). Returns an error text.
 */
function restoreObjectMeta(original: Obj, converted: Obj): string | undefined {
  if (!('metadata' in converted)) return 'missing metadata in converted object';
  const response = converted['metadata'];
  if (!isObj(response)) return `invalid metadata of type ${goType(response)} in converted object`;
  const restored: Obj = isObj(original['metadata']) ? structuredClone(original['metadata']) : {};
  converted['metadata'] = restored;
  for (const fld of ['labels', 'annotations'] as const) {
    const got = response[fld];
    if (got === undefined || got === null) { delete restored[fld]; continue; }
    if (!isObj(got)) return `invalid metadata.${fld} of type ${goType(got)} in converted object`;
    const orig = restored[fld];
    if (orig !== undefined && orig !== null && !isObj(orig)) return `invalid metadata.${fld} of type ${goType(orig)} in original object`;
    const origMap: Obj = isObj(orig) ? orig : {};
    let changed = Object.keys(origMap).length !== Object.keys(got).length;
    for (const [k, v] of Object.entries(got)) {
      if (typeof v !== 'string') return `metadata.${fld}[${k}] must be a string, but is ${goType(v)} in converted object`;
      if (origMap[k] !== v) changed = true;
    }
    if (changed) {
      const m = got as Record<string, string>;
      const errs: FieldError[] = fld === 'labels'
        ? validateLabels(m, fieldPath('metadata', 'labels'))
        // kube names this path metadata.annotation (sic)
        : validateAnnotations(m, fieldPath('metadata', 'annotation'));
      if (errs.length > 0) return aggregateMessages(errs.map(formatFieldError));
    }
    restored[fld] = got;
  }
  return undefined;
}

/** The converter of a CRD whose conversion strategy is Webhook. */
export class WebhookConverter implements CRConverter {
  readonly #client: WebhookClient;
  readonly #reviewVersion: 'v1' | 'v1beta1';

  /** Throws (as kube's NewWebhookConverter) when the client cannot be built or no review version is supported. */
  constructor(crd: DeepReadonly<CustomResourceDefinition>, clients: ClientManager) {
    const webhook = crd.spec.conversion?.webhook;
    const cc = webhook?.clientConfig ?? {};
    this.#client = clients.hookClient(clientConfigFromWire(`conversion_webhook_for_${crd.metadata.name ?? ''}`, {
      ...cc,
      // A bundle of only whitespace counts as none.
      caBundle: Buffer.from(cc.caBundle ?? '', 'base64').toString('utf8').trim() === '' ? null : cc.caBundle ?? null,
    }));
    this.#reviewVersion = reviewVersionFor(webhook?.conversionReviewVersions ?? []);
  }

  async convert(objs: readonly KubeObject[], apiVersion: string): Promise<KubeObject[]> {
    const todo = objs.map((o, i) => ({ o: o as KubeObject & Obj, i })).filter(({ o }) => o['apiVersion'] !== apiVersion);
    if (todo.length === 0) return [...objs];
    const first = todo[0]?.o ?? {};
    // kube converts objects read from storage one at a time and names the object's kind; a
    // batch is named after its first object.
    const fail = (detail: string): never => { throw unknownError(`conversion webhook for ${gvkText(first)} ${detail}`); };
    const uid = randomUUID();
    let converted: unknown[];
    try {
      const answer = await this.#client.postRaw(newReview(this.#reviewVersion, uid, apiVersion, todo.map((t) => t.o)));
      converted = convertedObjectsOf(decodeReview(answer, this.#reviewVersion), this.#reviewVersion, uid);
    } catch (e) {
      return fail(`failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (converted.length !== todo.length) return fail(`returned ${String(converted.length)} objects, expected ${String(todo.length)}`);
    const out = [...objs];
    todo.forEach(({ o, i }, n) => {
      const c = converted[n];
      // getRawExtensionObject's unmarshal error, which kube passes up without its prefix
      if (!isObj(c)) throw unknownError(`json: cannot unmarshal ${goJSONKind(c)} into Go value of type map[string]interface {}`);
      const got = str(c['apiVersion']);
      if (got !== apiVersion) fail(`returned invalid object at index 0: invalid groupVersion (expected ${gvText(apiVersion)}, received ${gvText(got)})`);
      if (str(c['kind']) !== str(o['kind'])) fail(`returned invalid object at index 0: invalid kind (expected ${str(o['kind'])}, received ${str(c['kind'])})`);
      const invalidObject = convertedObjectError(o, c);
      if (invalidObject !== undefined) fail(`returned invalid object: ${invalidObject}`);
      const invalidMeta = restoreObjectMeta(o, c);
      if (invalidMeta !== undefined) fail(`returned invalid metadata: ${invalidMeta}`);
      out[i] = c as KubeObject & Obj;
    });
    return out;
  }
}
