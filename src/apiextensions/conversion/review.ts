// The ConversionReview a conversion webhook is sent, and what kube's decoder makes of its answer:
// the review version (the first of conversionReviewVersions kube knows), the JSON or YAML body
// decoded into the expected review type, and the checks of the response (kind, uid, result).
// Counterpart of createConversionReviewObjects and getConvertedObjectsFromResponse in
// k8s.io/apiextensions-apiserver/pkg/apiserver/conversion/webhook_converter.go, with the texts of
// the REST client's universal decoder.
import { goJSONKind } from '../../apimachinery/validation/go-json.ts';
import { decodeWebhookObject } from '../../webhook/index.ts';

export const REVIEW_GROUP = 'apiextensions.k8s.io';
/** The review versions kube speaks, in the order it prefers them when a CRD lists several. */
const SUPPORTED = new Set(['v1', 'v1beta1']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first of the CRD's conversionReviewVersions kube supports; rejects when none is. */
export function reviewVersionFor(versions: readonly string[]): 'v1' | 'v1beta1' {
  for (const v of versions) if (SUPPORTED.has(v)) return v as 'v1' | 'v1beta1';
  throw new Error('no supported conversion review versions');
}

/** The request body: the review with its request, and the empty response Go encodes alongside. */
export function newReview(version: string, uid: string, desiredAPIVersion: string, objects: readonly unknown[]): Obj {
  return {
    kind: 'ConversionReview', apiVersion: `${REVIEW_GROUP}/${version}`,
    request: { uid, desiredAPIVersion, objects },
    response: { uid: '', convertedObjects: null, result: { metadata: {} } },
  };
}

/** Kinds the webhook client's scheme knows in apiextensions.k8s.io v1 and v1beta1 (other than ConversionReview). */
const KNOWN_KINDS = new Set([
  'CustomResourceDefinition', 'CustomResourceDefinitionList', 'WatchEvent', 'ListOptions', 'GetOptions', 'DeleteOptions',
  'CreateOptions', 'UpdateOptions', 'PatchOptions',
]);

/** What a review answer holds once decoded: its own kind and apiVersion, and the response. */
export interface DecodedReview {
  readonly apiVersion: string;
  readonly kind: string;
  readonly response: unknown;
}

/**
 * Decodes a webhook's answer into the review type of `version`, as the REST client's decoder
 * does. Throws with the decoder's texts: a body that is no object, an unknown kind, a kind of
 * the scheme that is not this review (`converting (v1beta1.ConversionReview) to
 * (v1.ConversionReview): unknown conversion`).
 */
export function decodeReview(body: string, version: 'v1' | 'v1beta1'): DecodedReview {
  const v = decodeWebhookObject(body);
  const apiVersion = typeof v['apiVersion'] === 'string' ? v['apiVersion'] : '';
  const kind = typeof v['kind'] === 'string' ? v['kind'] : '';
  // Missing parts are taken from the type decoded into.
  const effVersion = apiVersion === '' ? `${REVIEW_GROUP}/${version}` : apiVersion;
  const effKind = kind === '' ? 'ConversionReview' : kind;
  const wanted = `${REVIEW_GROUP}/${version}`;
  if (effVersion === wanted && effKind === 'ConversionReview') {
    const response = v['response'];
    if (response !== undefined && response !== null && !isObj(response)) {
      throw new Error(`json: cannot unmarshal ${goJSONKind(response)} into Go struct field ConversionReview.response of type ${version}.ConversionResponse`);
    }
    if (isObj(response) && response['uid'] !== undefined && response['uid'] !== null && typeof response['uid'] !== 'string') {
      throw new Error(`json: cannot unmarshal ${goJSONKind(response['uid'])} into Go struct field ConversionResponse.response.uid of type types.UID`);
    }
    return { apiVersion, kind, response };
  }
  const [group, ver] = effVersion.includes('/') ? [effVersion.slice(0, effVersion.indexOf('/')), effVersion.slice(effVersion.indexOf('/') + 1)] : ['', effVersion];
  if (group === REVIEW_GROUP && SUPPORTED.has(ver) && (effKind === 'ConversionReview' || KNOWN_KINDS.has(effKind))) {
    throw new Error(`converting (${ver}.${effKind}) to (${version}.ConversionReview): unknown conversion`);
  }
  throw new Error(`no kind ${JSON.stringify(effKind)} is registered for version ${JSON.stringify(effVersion)} in scheme "pkg/runtime/scheme.go:111"`);
}

/**
 * The converted objects of a decoded answer (getConvertedObjectsFromResponse): v1 answers must
 * name their kind and echo the request uid; both versions need result.status Success.
 */
export function convertedObjectsOf(review: DecodedReview, version: 'v1' | 'v1beta1', uid: string): unknown[] {
  if (version === 'v1' && (review.apiVersion !== `${REVIEW_GROUP}/v1` || review.kind !== 'ConversionReview')) {
    const gv = review.apiVersion;
    throw new Error(`expected webhook response of ${REVIEW_GROUP}/v1, Kind=ConversionReview, got ${gv.includes('/') ? gv : `/${gv}`}, Kind=${review.kind}`);
  }
  const response = review.response;
  if (!isObj(response)) throw new Error('no response provided');
  if (version === 'v1' && (response['uid'] ?? '') !== uid) {
    throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response['uid'] ?? '')}`);
  }
  const result = isObj(response['result']) ? response['result'] : {};
  const status = typeof result['status'] === 'string' ? result['status'] : '';
  if (status !== 'Success') {
    const message = typeof result['message'] === 'string' ? result['message'] : '';
    if (message !== '') throw new Error(message);
    throw new Error(`response.result.status was '${status}', not 'Success'`);
  }
  const objs = response['convertedObjects'];
  return Array.isArray(objs) ? objs : [];
}
