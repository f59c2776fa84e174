// DeleteOptions of DELETE and DELETECOLLECTION: from the body when there is one, else from the
// query (never both, as kube's DeleteResource), then ValidateDeleteOptions.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/delete.go (DeleteOptions) and
// k8s.io/apimachinery/pkg/apis/meta/v1/validation (ValidateDeleteOptions).
import type { IncomingMessage } from 'node:http';
import { invalid, notSupported, type FieldError } from '../../apimachinery/errors/field-errors.ts';
import { newBadRequest, newInvalid } from '../../apimachinery/errors/status-error.ts';
import type { DeleteOptions, DeletionPropagation } from '../../apimachinery/meta/types.ts';
import { decodeProtobuf } from '../../apimachinery/runtime/serializer/protobuf/index.ts';
import { parseGroupVersion } from '../../apimachinery/schema/group-version.ts';
import { bodyFormat } from '../negotiation.ts';
import { readBody } from '../request/body.ts';
import type { RequestState } from '../request/state.ts';
import { parseBoolParam, parseIntParam } from './common.ts';
import { decodeDeleteOptionsBody } from './delete-options-body.ts';
import { parseYAMLOrJSON } from './patch-apply.ts';

const POLICIES: readonly string[] = ['Foreground', 'Background', 'Orphan'];

/**
 * metav1 validation.ValidateDeleteOptions: both orphanDependents and propagationPolicy, an
 * unknown policy (kube lists "nil" among the supported ones), a dryRun other than "All".
 */
function validateDeleteOptions(o: DeleteOptions): FieldError[] {
  const errs: FieldError[] = [];
  const policy = o.propagationPolicy;
  if (o.orphanDependents !== undefined && policy !== undefined) {
    errs.push(invalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (policy !== undefined && !POLICIES.includes(policy)) {
    errs.push(notSupported('propagationPolicy', policy, [...POLICIES, 'nil']));
  }
  const dryRun = o.dryRun ?? [];
  if (dryRun.some((v) => v !== 'All')) errs.push(notSupported('dryRun', dryRun, ['All']));
  return errs;
}

function fromQuery(q: URLSearchParams): DeleteOptions {
  const opts: DeleteOptions = {};
  const grace = parseIntParam(q, 'gracePeriodSeconds');
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  const policy = q.get('propagationPolicy');
  if (policy !== null && policy !== '') opts.propagationPolicy = policy as DeletionPropagation;
  const orphan = parseBoolParam(q, 'orphanDependents');
  if (orphan !== undefined) opts.orphanDependents = orphan;
  const dryRun = q.getAll('dryRun');
  if (dryRun.length > 0) opts.dryRun = dryRun;
  return opts;
}

/**
 * The kinds kube's meta scheme registers besides DeleteOptions: the other options kinds and the
 * meta types in meta.k8s.io/v1 (Table and PartialObjectMetadata in v1beta1 too), the unversioned
 * ones (Status...) in v1 too. A body of one of
 * them fails conversion to DeleteOptions; any other kind is not registered at all.
 */
const OTHER_META_KINDS: Readonly<Record<string, ReadonlySet<string>>> = {
  'meta.k8s.io/v1': new Set(['ListOptions', 'GetOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions', 'Status', 'WatchEvent',
    'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList', 'Table', 'TableOptions', 'PartialObjectMetadata', 'PartialObjectMetadataList']),
  'meta.k8s.io/v1beta1': new Set(['Table', 'TableOptions', 'PartialObjectMetadata', 'PartialObjectMetadataList']),
  v1: new Set(['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']),
};

/**
 * The body's apiVersion and kind as kube's meta codec reads them: DeleteOptions (the default kind)
 * of any group version; the default version meta.k8s.io/v1 in messages. Rejects other kinds with 400.
 */
function checkKind(apiVersion: string, kind: string): void {
  if (apiVersion !== '' && parseGroupVersion(apiVersion) === undefined) throw newBadRequest(`unexpected GroupVersion string: ${apiVersion}`);
  if (kind === '' || kind === 'DeleteOptions') return;
  const version = apiVersion === '' ? 'meta.k8s.io/v1' : apiVersion;
  if (OTHER_META_KINDS[version]?.has(kind) === true) throw newBadRequest(`converting (v1.${kind}) to (v1.DeleteOptions): unknown conversion`);
  throw newBadRequest(`no kind "${kind}" is registered for version "${version}" in scheme "pkg/runtime/scheme.go:111"`);
}

/** A protobuf DeleteOptions of any group version (kube accepts per-group ones and meta.k8s.io/v1's). */
function fromProtobuf(body: Buffer): Record<string, unknown> {
  const { apiVersion, kind, obj } = decodeProtobuf(body);
  checkKind(apiVersion, kind === '' ? 'DeleteOptions' : kind);
  return obj;
}

/** A JSON or YAML body: its type meta is read first, as Go's json decoder reads it into a bare TypeMeta. */
function fromText(raw: string, contentType: string | undefined): Record<string, unknown> {
  const parsed = parseYAMLOrJSON(raw, contentType);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw newBadRequest('DeleteOptions must be an object');
  const o = parsed as Record<string, unknown>;
  const typeMeta = (field: 'apiVersion' | 'kind'): string => {
    const v = o[field];
    if (v === undefined || v === null) return '';
    if (typeof v === 'string') return v;
    const what = typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'array' : 'object';
    throw newBadRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${what} into Go struct field .${field} of type string`);
  };
  const apiVersion = typeMeta('apiVersion');
  checkKind(apiVersion, typeMeta('kind'));
  return o;
}

/** Reads and validates the options. Rejects with 400 for a body that is no object, 422 on DeleteOptions. */
export async function readDeleteOptions(req: IncomingMessage, state: RequestState): Promise<DeleteOptions> {
  const body = await readBody(req);
  const raw = body.toString('utf8').trim();
  let opts: DeleteOptions;
  if (raw !== '') {
    // A body's Content-Type is negotiated as any other's (415 when kube has no decoder for it).
    // client-go sends protobuf DeleteOptions (kube-controller-manager deleting pods, say).
    const parsed = bodyFormat(req.headers['content-type']) === 'protobuf'
      ? fromProtobuf(body)
      : fromText(raw, req.headers['content-type']);
    opts = decodeDeleteOptionsBody(parsed);
  } else {
    opts = fromQuery(state.url.searchParams);
  }
  const errs = validateDeleteOptions(opts);
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  return opts;
}
