// PodLogOptions from the query of pods/log (and the ports of pods/portforward): the url.Values conversion (a value strconv or
// time.Parse refuses is a 400 with Go's text, the first failing field in the conversion's
// order) and ValidatePodLogOptions (422 PodLogOptions naming the pod).
import { forbidden, invalid, type FieldError } from '../../../../apimachinery/errors/field-errors.ts';
import { newBadRequest, newInvalid } from '../../../../apimachinery/errors/status-error.ts';
import { goQuote } from '../../../../apimachinery/goformat/index.ts';
import { parseGoTime } from '../../../../apimachinery/fieldvalidation/go-time.ts';
import { queryInt64, StrconvError } from '../../../../apimachinery/runtime/query-conversion.ts';

export interface PodLogQuery {
  readonly sinceSeconds?: number;
  readonly sinceTime?: string;
  readonly tailLines?: number;
  readonly limitBytes?: number;
}

function int64(q: URLSearchParams, name: string): number | undefined {
  try {
    return queryInt64(q, name);
  } catch (err) {
    if (err instanceof StrconvError) throw newBadRequest(err.message);
    throw err;
  }
}

/** metav1.Time's UnmarshalQueryParameter: '' and "null" are unset, else RFC 3339. */
function sinceTime(q: URLSearchParams): string | undefined {
  const v = q.get('sinceTime');
  if (v === null || v === '' || v === 'null') return undefined;
  const t = parseGoTime(v, 'time');
  if (!t.ok) throw newBadRequest(t.error);
  return t.value;
}

/** Decodes and validates the numeric and time options; rejects with 400 or 422 as kube does. */
export function parsePodLogOptions(q: URLSearchParams, podName: string): PodLogQuery {
  const opts: { -readonly [K in keyof PodLogQuery]: PodLogQuery[K] } = {};
  const since = int64(q, 'sinceSeconds');
  if (since !== undefined) opts.sinceSeconds = since;
  const time = sinceTime(q);
  if (time !== undefined) opts.sinceTime = time;
  const tail = int64(q, 'tailLines');
  if (tail !== undefined) opts.tailLines = tail;
  const limit = int64(q, 'limitBytes');
  if (limit !== undefined) opts.limitBytes = limit;

  const errs: FieldError[] = [];
  if (opts.tailLines !== undefined && opts.tailLines < 0) errs.push(invalid('tailLines', opts.tailLines, 'must be greater than or equal to 0'));
  if (opts.limitBytes !== undefined && opts.limitBytes < 1) errs.push(invalid('limitBytes', opts.limitBytes, 'must be greater than 0'));
  if (opts.sinceSeconds !== undefined && opts.sinceTime !== undefined) {
    errs.push(forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  } else if (opts.sinceSeconds !== undefined && opts.sinceSeconds < 1) {
    errs.push(invalid('sinceSeconds', opts.sinceSeconds, 'must be greater than 0'));
  }
  if (errs.length > 0) throw newInvalid({ group: '', kind: 'PodLogOptions' }, podName, errs);
  return opts;
}

const MAX_UINT16 = 65535;

/**
 * PodPortForwardOptions.ports (Convert_Slice_string_To_Slice_int32): every value, split at
 * commas, is strconv.ParseUint(v, 10, 16); the first that fails is a 400.
 */
export function parsePortForwardPorts(q: URLSearchParams): number[] {
  const ports: number[] = [];
  for (const value of q.getAll('ports')) {
    for (const v of value.split(',')) {
      let why: string | undefined;
      if (!/^[0-9]+$/.test(v)) why = 'invalid syntax';
      else if (BigInt(v) > BigInt(MAX_UINT16)) why = 'value out of range';
      if (why !== undefined) throw newBadRequest(`cannot convert to []int32: strconv.ParseUint: parsing ${goQuote(v)}: ${why}`);
      ports.push(Number(v));
    }
  }
  return ports;
}
