// The attacker of issue 9 for the hostile-input corpus: a namespace-scoped service account that may
// only get/create/patch/update/list/watch ConfigMaps and one custom resource whose schema preserves
// unknown fields, plus requests that give up after a guard instead of hanging the test file when a
// hostile case freezes the server.
// No Go counterpart: the e2e test harness.
import { request as httpsRequest } from 'node:https';
import type { AdminCredentials, RawRequest, RawResponse } from './https-client.ts';
import { CR_GROUP } from '../../apimachinery/testing/hostile-bodies.ts';
import { eventually } from './suite.ts';

/** A server the admin can reach: kapi's test suite or the oracle. */
export interface AdminServer {
  readonly creds: AdminCredentials;
}

export const HOSTILE_NS = 'hostile';
export const CM_PATH = `/api/v1/namespaces/${HOSTILE_NS}/configmaps`;
export const BLOB_PATH = `/apis/${CR_GROUP}/v1/namespaces/${HOSTILE_NS}/blobs`;

/** A guard against a frozen server, not a timing assertion: the case fails instead of hanging. */
const REQUEST_GUARD_MS = 45_000;

export interface HostileRequest extends RawRequest {
  readonly guardMs?: number;
}

/**
 * One request on its own connection. A response that never comes resolves as status 0 with the
 * reason in `text` (so the case fails with a message); a reset connection too.
 */
export function send(creds: AdminCredentials, req: HostileRequest): Promise<RawResponse> {
  // The path is sent as written: a URL object would resolve `%2e%2e` and `..` segments itself.
  const server = new URL(creds.server);
  const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
  if (req.auth !== false && headers['Authorization'] === undefined) headers['Authorization'] = `Bearer ${creds.token}`;
  if (req.body !== undefined) {
    headers['Content-Type'] = req.contentType ?? 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(req.body));
  }
  const failed = (why: string): RawResponse => ({
    status: 0, headers: {}, text: why, body: Buffer.alloc(0), json: () => { throw new Error(why); },
  });
  return new Promise((resolve) => {
    const r = httpsRequest({ host: server.hostname, port: server.port, path: req.path, method: req.method, headers, ca: creds.ca, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => resolve(failed(`response error: ${err.message}`)));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body, json: () => JSON.parse(text) as unknown });
      });
    });
    r.setTimeout(req.guardMs ?? REQUEST_GUARD_MS, () => {
      r.destroy();
      resolve(failed(`no answer within the ${req.guardMs ?? REQUEST_GUARD_MS} ms guard (server frozen?)`));
    });
    r.on('error', (err) => resolve(failed(`connection error: ${err.message}`)));
    r.end(req.body);
  });
}

const json = (v: unknown): string => JSON.stringify(v);

async function must(s: AdminServer, req: RawRequest, ok: readonly number[]): Promise<RawResponse> {
  const r = await send(s.creds, req);
  if (!ok.includes(r.status)) throw new Error(`${req.method} ${req.path}: ${r.status} ${r.text.slice(0, 500)}`);
  return r;
}

/**
 * Creates the namespace, the CRD (blobs.hostile.example.com, preserve-unknown-fields), the
 * service account with its Role and RoleBinding, and returns the attacker's credentials (a
 * TokenRequest token). The server (kapi or the oracle) must run with RBAC authorization.
 */
export async function setUpAttacker(s: AdminServer): Promise<AdminCredentials> {
  await must(s, { method: 'POST', path: '/api/v1/namespaces',
    body: json({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: HOSTILE_NS } }) }, [201]);
  await must(s, { method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: json({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: `blobs.${CR_GROUP}` },
    spec: {
      group: CR_GROUP, scope: 'Namespaced',
      names: { plural: 'blobs', singular: 'blob', kind: 'Blob', listKind: 'BlobList' },
      versions: [{ name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  }) }, [201]);
  await must(s, { method: 'POST', path: `/api/v1/namespaces/${HOSTILE_NS}/serviceaccounts`,
    body: json({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'attacker' } }) }, [201]);
  await must(s, { method: 'POST', path: `/apis/rbac.authorization.k8s.io/v1/namespaces/${HOSTILE_NS}/roles`, body: json({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'attacker' },
    rules: [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create', 'patch', 'update', 'list', 'watch'] },
      { apiGroups: [CR_GROUP], resources: ['blobs'], verbs: ['get', 'create', 'patch', 'update', 'list', 'watch'] },
    ],
  }) }, [201]);
  await must(s, { method: 'POST', path: `/apis/rbac.authorization.k8s.io/v1/namespaces/${HOSTILE_NS}/rolebindings`, body: json({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'attacker' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'attacker' },
    subjects: [{ kind: 'ServiceAccount', name: 'attacker', namespace: HOSTILE_NS }],
  }) }, [201]);
  const tr = await must(s, { method: 'POST', path: `/api/v1/namespaces/${HOSTILE_NS}/serviceaccounts/attacker/token`,
    body: json({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } }) }, [201]);
  const token = (tr.json() as { status: { token: string } }).status.token;
  const attacker: AdminCredentials = { ...s.creds, token };
  // The role binding and the CRD take effect through watches: wait until the attacker can list both.
  await eventually('the attacker may list configmaps and blobs', async () => {
    const a = await send(attacker, { method: 'GET', path: CM_PATH });
    const b = await send(attacker, { method: 'GET', path: BLOB_PATH });
    return a.status === 200 && b.status === 200 ? true : undefined;
  });
  return attacker;
}
