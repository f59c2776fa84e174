// Writing objects, lists and errors in the negotiated format.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/response.go and
// k8s.io/apiserver/pkg/endpoints/handlers/responsewriters.
import type { ServerResponse } from 'node:http';
import { toStatus } from '../../apimachinery/errors/status-error.ts';
import { stringifyJSON } from '../../apimachinery/json-depth.ts';
import {
  encodeProtobuf, encodeProtobufList, encodeProtobufMessage, listItemMessage, type MessageType,
} from '../../apimachinery/runtime/serializer/protobuf/index.ts';
import { encodeJSON, encodePrettyJSON, goEscapeJSON } from '../../apimachinery/runtime/serializer/json.ts';
import { encodeYAML } from '../../apimachinery/runtime/serializer/yaml.ts';
import type { RequestState } from '../request/state.ts';
import { tryNegotiate, type Target } from '../negotiation.ts';

const CONTENT_TYPE: Record<Target['format'], string> = {
  json: 'application/json', yaml: 'application/yaml', protobuf: 'application/vnd.kubernetes.protobuf',
};

/**
 * The bytes of `body` in the target's format. JSON is written as kube's serializer writes it:
 * newline-terminated, or indented (no newline) when `pretty` (the target's or the request's).
 */
export function encode(body: unknown, target: Target, pretty = false): string | Buffer {
  switch (target.format) {
    case 'yaml': return encodeYAML(body);
    case 'protobuf': return encodeProtobuf(body as Record<string, unknown>);
    default: return pretty || target.pretty === true ? encodePrettyJSON(body) : encodeJSON(body);
  }
}

/** Whether JSON for this request is indented: Accept's pretty=1, ?pretty, or a human's user agent. */
const wantsPretty = (target: Target, state: RequestState | undefined): boolean =>
  target.format === 'json' && (target.pretty === true || state?.isPrettyPrint() === true);

/** Sets the Warning header from the warnings recorded for the request. */
export function setWarnings(res: ServerResponse, state: RequestState | undefined): void {
  if (state === undefined || state.warnings.length === 0) return;
  res.setHeader('Warning', state.warnings.map((w) => `299 - ${JSON.stringify(w)}`));
}

export function writeRaw(res: ServerResponse, code: number, contentType: string, body: string | Buffer,
  state?: RequestState): void {
  if (res.headersSent) { res.end(); return; }
  setWarnings(res, state);
  res.statusCode = code;
  res.setHeader('Content-Type', contentType);
  // One UTF-8 encoding: measuring a string and then writing it would encode it twice.
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}

export function writeObject(res: ServerResponse, code: number, body: unknown, target: Target, state?: RequestState): void {
  state?.audit?.logResponseObject(body);
  writeRaw(res, code, target.contentType, encode(body, target, wantsPretty(target, state)), state);
}

/** Items per slice of a paced list encoding: a few milliseconds of work for ConfigMap-sized items. */
export const LIST_SLICE = 500;

export interface ListBody {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: unknown;
  readonly items: readonly unknown[];
}

/**
 * Encode once: an item the watch cache holds is frozen (never changes), so its encoding for one
 * endpoint (JSON, protobuf message, protobuf object) is computed once and shared by every list and
 * GET that returns it. Keyed weakly by the item.
 */
const encodedItems = new WeakMap<object, Map<string, string | Buffer>>();

function memoized<B extends string | Buffer>(item: unknown, memoKey: string | undefined, make: () => B): B {
  if (memoKey === undefined || typeof item !== 'object' || item === null || !Object.isFrozen(item)) return make();
  let byKey = encodedItems.get(item);
  if (byKey === undefined) {
    byKey = new Map();
    encodedItems.set(item, byKey);
  }
  let bytes = byKey.get(memoKey) as B | undefined;
  if (bytes === undefined) {
    bytes = make();
    byKey.set(memoKey, bytes);
  }
  return bytes;
}

const encodeItem = (item: unknown, convert: (item: unknown) => unknown, memoKey: string | undefined): string =>
  memoized(item, memoKey, () => stringifyJSON(convert(item)));

const encodeItemMessage = (item: unknown, convert: (item: unknown) => unknown, memoKey: string, msg: MessageType): Buffer =>
  memoized(item, `${memoKey}|protobuf-item`, () => encodeProtobufMessage(convert(item) as Record<string, unknown>, msg));

/** A protobuf list from its items' shared message bytes, a slice at a time as JSON lists are. */
async function writeProtobufListPaced(res: ServerResponse, code: number, list: ListBody, convert: (item: unknown) => unknown,
  msg: MessageType, target: Target, state: RequestState, pause: () => Promise<void>, memoKey: string): Promise<void> {
  const items: Buffer[] = [];
  for (let i = 0; i < list.items.length; i += LIST_SLICE) {
    for (const it of list.items.slice(i, i + LIST_SLICE)) items.push(encodeItemMessage(it, convert, memoKey, msg));
    if (list.items.length > LIST_SLICE) await pause();
  }
  writeRaw(res, code, target.contentType, encodeProtobufList({ apiVersion: list.apiVersion, kind: list.kind, metadata: list.metadata }, items), state);
}

/**
 * Writes a list, converting (`convert`) and encoding its items a slice at a time with `pause`
 * between slices, so a 10k-item list does not hold the event loop for its whole encoding and a
 * request past its deadline stops (pause rejects). JSON output is byte-identical to encoding the
 * whole list at once; other formats are encoded in one go.
 * `memoKey` names what `convert` depends on (the endpoint): frozen items' JSON is then reused.
 */
export async function writeListPaced(res: ServerResponse, code: number, list: ListBody, convert: (item: unknown) => unknown,
  target: Target, state: RequestState, pause: () => Promise<void>, memoKey?: string): Promise<void> {
  // The audit event's copy of a list is made only for a policy that keeps response bodies.
  if (state.audit?.wantsResponseObject === true) state.audit.logResponseObject({ ...list, items: list.items.map(convert) });
  // A small list is encoded in one go, from its items' shared JSON when they have any.
  const small = list.items.length <= LIST_SLICE;
  const itemMessage = target.format === 'protobuf' && memoKey !== undefined ? listItemMessage(list.apiVersion, list.kind) : undefined;
  if (itemMessage !== undefined && memoKey !== undefined) {
    await writeProtobufListPaced(res, code, list, convert, itemMessage, target, state, pause, memoKey);
    return;
  }
  if (target.format !== 'json' || (small && memoKey === undefined) || wantsPretty(target, state)) {
    writeObject(res, code, { ...list, items: list.items.map(convert) }, target, state);
    return;
  }
  const parts: string[] = [];
  for (let i = 0; i < list.items.length; i += LIST_SLICE) {
    parts.push(list.items.slice(i, i + LIST_SLICE).map((it) => encodeItem(it, convert, memoKey)).join(','));
    if (!small) await pause();
  }
  // The list's own key order: kind first for a typed list (Go's TypeMeta), sorted for an unstructured one.
  const members = Object.entries(list).map(([k, v]) => (k === 'items' ? `"items":[${parts.join(',')}]` : `${JSON.stringify(k)}:${JSON.stringify(v)}`));
  writeRaw(res, code, target.contentType, `${goEscapeJSON(`{${members.join(',')}}`)}\n`, state);
}

/**
 * writeObject of `convert(item)`; in JSON and protobuf, a frozen (watch-cached) item's encoding for the
 * endpoint `memoKey` is made once and shared by every later answer with it (GET with a
 * resourceVersion, which the watch cache serves).
 */
export function writeItem(res: ServerResponse, code: number, item: object, convert: (item: unknown) => unknown,
  target: Target, state: RequestState, memoKey: string): void {
  if ((target.format !== 'json' && target.format !== 'protobuf') || wantsPretty(target, state) || !Object.isFrozen(item)) {
    writeObject(res, code, convert(item), target, state);
    return;
  }
  if (state.audit?.wantsResponseObject === true) state.audit.logResponseObject(convert(item));
  const body = target.format === 'protobuf'
    ? memoized(item, `${memoKey}|protobuf`, () => encodeProtobuf(convert(item) as Record<string, unknown>))
    : `${goEscapeJSON(encodeItem(item, convert, memoKey))}\n`;
  writeRaw(res, code, target.contentType, body, state);
}

/**
 * Writes a Status for any error (ErrorNegotiated); anything but a StatusError becomes a 500 and
 * is logged. The Status is negotiated like any object from the request's Accept header (JSON,
 * YAML or protobuf, never a transformed shape such as a Table); when no serializer fits, it is
 * written as indented JSON with the error's own code (WriteRawJSON).
 */
export function writeError(res: ServerResponse, err: unknown, target?: Target, state?: RequestState): void {
  // The client went away in the middle of its body: there is no one to answer, and nothing to log.
  if (err instanceof Error && (err as NodeJS.ErrnoException).code === 'ECONNRESET' && (res.destroyed || res.socket?.destroyed === true)) return;
  const full = toStatus(err);
  // metav1.Status's field order; Go omits an empty reason (StatusReasonUnknown) and absent details.
  const status = {
    kind: full.kind, apiVersion: full.apiVersion, metadata: full.metadata, status: full.status, message: full.message,
    ...(full.reason === '' ? {} : { reason: full.reason }),
    ...(full.details === undefined ? {} : { details: full.details }),
    code: full.code,
  };
  if (status.code >= 500 && !(err instanceof Error && err.name === 'StatusError')) {
    console.error('internal error:', err);
  }
  if (status.details?.retryAfterSeconds !== undefined && status.details.retryAfterSeconds > 0) {
    res.setHeader('Retry-After', String(status.details.retryAfterSeconds));
  }
  const t = target !== undefined
    ? { ...target, shape: 'object' as const, contentType: CONTENT_TYPE[target.format] }
    : tryNegotiate(state?.accept, { restrictions: 'default' });
  if (t === undefined) {
    writeRawJSON(res, status.code, status, state);
    return;
  }
  writeObject(res, status.code, status, t, state);
}

/** responsewriters.WriteRawJSON: always indented, no trailing newline, whatever was negotiated. */
export function writeRawJSON(res: ServerResponse, code: number, body: unknown, state?: RequestState): void {
  writeRaw(res, code, 'application/json', encodePrettyJSON(body), state);
}
