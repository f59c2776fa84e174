// DeleteOptions of DELETE and DELETECOLLECTION: from the body when there is one, else from the
// query (never both, as kube's DeleteResource), then ValidateDeleteOptions.
import type { IncomingMessage } from 'node:http';
import { invalid, notSupported, type FieldError } from '../../apimachinery/errors/field-errors.ts';
import { newBadRequest, newInvalid } from '../../apimachinery/errors/status-error.ts';
import type { DeleteOptions, DeletionPropagation } from '../../apimachinery/meta/types.ts';
import { decodeProtobuf } from '../../apimachinery/runtime/serializer/protobuf/index.ts';
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
export function validateDeleteOptions(o: DeleteOptions): FieldError[] {
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

/** The other options kinds kube's meta scheme knows (in meta.k8s.io/v1 only), but cannot convert. */
const OTHER_OPTIONS_KINDS: ReadonlySet<string> = new Set(['ListOptions', 'GetOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions']);

/**
 * A protobuf DeleteOptions of any group version (kube accepts per-group ones and meta.k8s.io/v1's);
 * any other kind is refused with the 400 kube's meta scheme gives.
 */
function fromProtobuf(body: Buffer): Record<string, unknown> {
  const { apiVersion, kind, obj } = decodeProtobuf(body);
  if (kind === 'DeleteOptions') return obj;
  if (apiVersion === 'meta.k8s.io/v1' && OTHER_OPTIONS_KINDS.has(kind)) {
    throw newBadRequest(`converting (v1.${kind}) to (v1.DeleteOptions): unknown conversion`);
  }
  throw newBadRequest(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/runtime/scheme.go:111"`);
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
      : parseYAMLOrJSON(raw, req.headers['content-type']);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw newBadRequest('DeleteOptions must be an object');
    opts = decodeDeleteOptionsBody(parsed as Record<string, unknown>);
  } else {
    opts = fromQuery(state.url.searchParams);
  }
  const errs = validateDeleteOptions(opts);
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  return opts;
}
