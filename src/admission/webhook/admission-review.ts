// The AdmissionReview sent to a webhook and the checks of its answer, in the first version the
// webhook lists that kapi knows (v1, v1beta1: the same shape).
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/webhook/request/admissionreview.go.
import { randomUUID } from 'node:crypto';
import type { GroupVersionKind, GroupVersionResource } from '../../apimachinery/schema/group-version.ts';
import type { Attributes } from '../interfaces.ts';
import type { ResultStatus } from './errors.ts';
import type { AdmissionReview } from './types.ts';

/** Which webhook is called for which resource and kind (generic.WebhookInvocation). */
export interface Invocation {
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  readonly kind: GroupVersionKind;
}

/** The request's objects in the invocation's version. */
export interface VersionedObjects {
  readonly object: unknown;
  readonly oldObject: unknown;
}

/** The first AdmissionReview version of the webhook's list kapi can send, or undefined. */
export function reviewVersion(versions: readonly string[] | undefined): 'v1' | 'v1beta1' | undefined {
  for (const v of versions ?? []) if (v === 'v1' || v === 'v1beta1') return v;
  return undefined;
}

const gvk = (k: GroupVersionKind): { group: string; version: string; kind: string } => ({ group: k.group, version: k.version, kind: k.kind });
const gvr = (r: GroupVersionResource): { group: string; version: string; resource: string } =>
  ({ group: r.group, version: r.version, resource: r.resource });

/** CreateV1AdmissionReview / CreateV1beta1AdmissionReview, with a new uid; empty strings omitted as Go does. */
export function createAdmissionReview(version: 'v1' | 'v1beta1', attrs: Attributes, inv: Invocation,
  objs: VersionedObjects): AdmissionReview {
  const u = attrs.userInfo;
  const userInfo = {
    ...(u?.name !== undefined && u.name !== '' ? { username: u.name } : {}),
    ...(u?.uid !== undefined && u.uid !== '' ? { uid: u.uid } : {}),
    ...(u !== undefined && u.groups.length > 0 ? { groups: u.groups } : {}),
    ...(u?.extra !== undefined && Object.keys(u.extra).length > 0 ? { extra: u.extra } : {}),
  };
  return {
    kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`,
    request: {
      uid: randomUUID(), kind: gvk(inv.kind), resource: gvr(inv.resource),
      ...(inv.subresource !== '' ? { subResource: inv.subresource } : {}),
      requestKind: gvk(attrs.kind), requestResource: gvr(attrs.resource),
      ...(attrs.subresource !== '' ? { requestSubResource: attrs.subresource } : {}),
      ...(attrs.name !== '' ? { name: attrs.name } : {}),
      ...(attrs.namespace !== '' ? { namespace: attrs.namespace } : {}),
      operation: attrs.operation, userInfo, object: objs.object ?? null, oldObject: objs.oldObject ?? null,
      dryRun: attrs.dryRun, options: attrs.options ?? null,
    },
  };
}

/** AdmissionResponse: what kapi takes from a verified answer. */
export interface AdmissionResult {
  readonly allowed: boolean;
  /** The decoded JSON patch text (base64 on the wire), '' when none. */
  readonly patch: string;
  readonly patchType: string;
  readonly result: ResultStatus | undefined;
  readonly warnings: readonly string[];
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * VerifyAdmissionResponse. Throws an Error whose message is kube's reason when the answer is not
 * a valid review (absent response, uid or kind mismatch, patch rules); the caller wraps it as
 * `received invalid webhook response: ...`.
 */
export function verifyAdmissionResponse(version: 'v1' | 'v1beta1', uid: string, mutating: boolean, review: unknown): AdmissionResult {
  const r = isRecord(review) ? review : {};
  const resp = r['response'];
  if (!isRecord(resp)) throw new Error('webhook response was absent');
  const patchB64 = typeof resp['patch'] === 'string' ? resp['patch'] : '';
  const patch = patchB64 === '' ? '' : Buffer.from(patchB64, 'base64').toString('utf8');
  const rawType = resp['patchType'];
  let patchType = '';
  if (version === 'v1') {
    const got = typeof resp['uid'] === 'string' ? resp['uid'] : '';
    if (got !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(got)}`);
    const apiVersion = typeof r['apiVersion'] === 'string' ? r['apiVersion'] : '';
    const kind = typeof r['kind'] === 'string' ? r['kind'] : '';
    if (apiVersion !== 'admission.k8s.io/v1' || kind !== 'AdmissionReview') {
      throw new Error(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkString(apiVersion, kind)}`);
    }
    if (mutating) {
      if (patch !== '' && (rawType === undefined || rawType === null)) throw new Error('webhook returned response.patch but not response.patchType');
      if (patch === '' && rawType !== undefined && rawType !== null) throw new Error('webhook returned response.patchType but not response.patch');
      if (rawType !== undefined && rawType !== null) {
        patchType = typeof rawType === 'string' ? rawType : '';
        if (patchType === '') throw new Error('webhook returned invalid response.patchType of ""');
      }
    } else {
      if (patch !== '') throw new Error('validating webhook may not return response.patch');
      if (rawType !== undefined && rawType !== null) throw new Error('validating webhook may not return response.patchType');
    }
  } else if (mutating && patch !== '') {
    // v1beta1 never checked the patch type: a patch is a JSON patch.
    patchType = 'JSONPatch';
  }
  const warnings = Array.isArray(resp['warnings']) ? resp['warnings'].filter((w): w is string => typeof w === 'string') : [];
  const annotations: Record<string, string> = {};
  if (isRecord(resp['auditAnnotations'])) {
    for (const [k, v] of Object.entries(resp['auditAnnotations'])) if (typeof v === 'string') annotations[k] = v;
  }
  return {
    allowed: resp['allowed'] === true, patch: mutating ? patch : '', patchType,
    result: isRecord(resp['status']) ? resp['status'] as ResultStatus : undefined, warnings, auditAnnotations: annotations,
  };
}

/** schema.GroupVersionKind.String of an apiVersion and kind. */
function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return `${group}/${version}, Kind=${kind}`;
}
