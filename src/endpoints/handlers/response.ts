// Writing objects, lists and errors in the negotiated format.
import type { ServerResponse } from 'node:http';
import { stringify as yamlStringify } from 'yaml';
import { toStatus } from '../../apimachinery/errors/status-error.ts';
import { encodeProtobuf } from '../../apimachinery/runtime/serializer/protobuf/index.ts';
import type { RequestState } from '../request/state.ts';
import { JSON_TARGET, type Target } from '../negotiation.ts';

const CONTENT_TYPE: Record<Target['format'], string> = {
  json: 'application/json', yaml: 'application/yaml', protobuf: 'application/vnd.kubernetes.protobuf',
};

export function encode(body: unknown, target: Target): string | Buffer {
  switch (target.format) {
    case 'yaml': return yamlStringify(body);
    case 'protobuf': return encodeProtobuf(body as Record<string, unknown>);
    default: return JSON.stringify(body);
  }
}

function setWarnings(res: ServerResponse, state: RequestState | undefined): void {
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
  writeRaw(res, code, target.contentType, encode(body, target), state);
}

/** Writes a Status for any error; anything but a StatusError becomes a 500 and is logged. */
export function writeError(res: ServerResponse, err: unknown, target: Target = JSON_TARGET, state?: RequestState): void {
  const full = toStatus(err);
  // Go omits an empty reason (StatusReasonUnknown) from the JSON.
  const { reason, ...rest } = full;
  const status = reason === '' ? rest : full;
  if (status.code >= 500 && !(err instanceof Error && err.name === 'StatusError')) {
    console.error('internal error:', err);
  }
  if (status.code === 429 || status.code === 504 || status.code === 503) {
    const retry = status.details?.retryAfterSeconds;
    if (retry !== undefined && retry > 0) res.setHeader('Retry-After', String(retry));
  }
  // Errors are always objects, never Tables: fall back to the plain serialization of the format.
  const t: Target = target.format === 'json' ? JSON_TARGET : { ...target, shape: 'object', contentType: CONTENT_TYPE[target.format] };
  writeObject(res, status.code, status, t, state);
}
