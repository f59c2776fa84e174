// Sends the CRD-validation corpus (crd-corpus.ts) to a server and reduces each answer to what the
// differential compares: status code, reason, and the causes (field | reason | message, sorted); for
// an accepted custom resource its stored spec (defaults applied, nulls pruned).
// No Go counterpart: the e2e test harness.
import { setTimeout as sleep } from 'node:timers/promises';
import type { RawRequest, RawResponse } from './https-client.ts';
import { CR_CASES, CRD_CASES, UPDATE_CASE_NAMES, type CRDCase } from './crd-corpus.ts';

export interface Answer { readonly code: number; readonly reason?: string; readonly causes?: readonly string[]; readonly spec?: unknown }
type Send = (req: RawRequest) => Promise<RawResponse>;

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
/** A guard against a hang while a CRD becomes served, not a timing assertion. */
const SERVED_ATTEMPTS = 300;

function crd(i: number, c: Pick<CRDCase, 'spec' | 'v2'>): Record<string, unknown> {
  const version = (name: string, spec: unknown, storage: boolean): Record<string, unknown> =>
    ({ name, served: true, storage, schema: { openAPIV3Schema: { type: 'object', properties: { spec } } } });
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `cv${i}s.example.com` },
    spec: { group: 'example.com', scope: 'Cluster', names: { plural: `cv${i}s`, singular: `cv${i}`, kind: `Cv${i}`, listKind: `Cv${i}List` },
      versions: [version('v1', c.spec, true), ...(c.v2 === undefined ? [] : [version('v2', c.v2, false)])] },
  };
}

/** Key order aside (Go writes struct fields in declaration order), the same JSON. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortKeys(o[k])]));
}

function answer(r: RawResponse): Answer {
  const body = r.json() as { reason?: string; spec?: unknown; details?: { causes?: { field?: string; reason?: string; message?: string }[] } };
  if (r.status < 300) return { code: r.status, spec: sortKeys(body.spec ?? null) };
  const causes = (body.details?.causes ?? []).map((c) => `${c.field ?? ''} | ${c.reason ?? ''} | ${c.message ?? ''}`).sort();
  return { code: r.status, reason: body.reason ?? '', causes };
}

const post = (send: Send, path: string, body: unknown): Promise<RawResponse> =>
  send({ method: 'POST', path, body: JSON.stringify(body), contentType: 'application/json' });

async function establishedVersion(send: Send, path: string): Promise<string> {
  for (let k = 0; k < SERVED_ATTEMPTS; k++) {
    const got = (await send({ method: 'GET', path })).json() as
      { metadata: { resourceVersion: string }; status?: { conditions?: { type: string; status: string }[] | null } };
    if ((got.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True')) return got.metadata.resourceVersion;
    await sleep(100);
  }
  throw new Error(`${path} never became Established`);
}

/** Every case's answer, keyed `crd: <name>` and `cr: <name>`. */
export async function sendCorpus(send: Send): Promise<Record<string, Answer>> {
  const out: Record<string, Answer> = {};
  for (const [i, c] of CRD_CASES.entries()) out[`crd: ${c.name}`] = answer(await post(send, CRDS, crd(i, c)));
  for (const [j, c] of CR_CASES.entries()) {
    const i = 1000 + j;
    const made = await post(send, CRDS, crd(i, c));
    if (made.status !== 201) throw new Error(`cr: ${c.name}: its CRD was refused: ${made.text}`);
    let r: RawResponse | undefined;
    for (let k = 0; k < SERVED_ATTEMPTS; k++) {
      r = await post(send, `/apis/example.com/v1/cv${i}s`, { apiVersion: 'example.com/v1', kind: `Cv${i}`, metadata: { name: 'x' }, spec: c.value });
      if (r.status !== 404) break;
      await sleep(100);
    }
    if (r === undefined) throw new Error('unreachable');
    out[`cr: ${c.name}`] = answer(r);
  }
  for (const [j, name] of UPDATE_CASE_NAMES.entries()) {
    const c = CRD_CASES.find((x) => x.name === name);
    if (c === undefined) throw new Error(`no CRD case ${name}`);
    const i = 2000 + j;
    const made = await post(send, CRDS, crd(i, { spec: { type: 'object', properties: { a: { type: 'string' } } } }));
    if (made.status !== 201) throw new Error(`update: ${name}: the valid CRD was refused: ${made.text}`);
    // kube's controllers write the new CRD (status, a finalizer) a few times: a Conflict is retried
    // on the fresh object, so that only validation decides the answer.
    const path = `${CRDS}/cv${i}s.example.com`;
    let r: RawResponse | undefined;
    for (let k = 0; k < SERVED_ATTEMPTS && (r === undefined || r.status === 409); k++) {
      const rv = await establishedVersion(send, path);
      const next = crd(i, c);
      (next['metadata'] as Record<string, unknown>)['resourceVersion'] = rv;
      r = await send({ method: 'PUT', path, body: JSON.stringify(next), contentType: 'application/json' });
    }
    if (r === undefined) throw new Error('unreachable');
    out[`update: ${name}`] = answer(r);
  }
  return out;
}
