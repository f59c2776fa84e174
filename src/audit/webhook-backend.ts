// The audit webhook backend: batches of events POSTed as an audit.k8s.io/v1 EventList to the
// server of a kubeconfig file's current context (its CA, client certificate or token), retried
// with exponential backoff from --audit-webhook-initial-backoff on failure.
// Counterpart of k8s.io/apiserver/plugin/pkg/audit/webhook and k8s.io/apiserver/pkg/util/webhook
// (the kubeconfig-based client).
import { readFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { dirname, resolve } from 'node:path';
import { parse as parseYAML } from 'yaml';
import { encodeJSON } from '../apimachinery/runtime/serializer/json.ts';
import type { AuditEvent } from './types.ts';

export interface WebhookTarget {
  readonly url: URL;
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly token?: string;
  readonly insecureSkipTLSVerify: boolean;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Obj : {});
const named = (list: unknown, name: string, key: string): Obj => {
  const found = (Array.isArray(list) ? list : []).map(obj).find((e) => e['name'] === name);
  return obj(found?.[key]);
};

/** The webhook's server and credentials from a kubeconfig file; throws an Error saying what is wrong. */
export async function loadWebhookKubeconfig(path: string): Promise<WebhookTarget> {
  const text = await readFile(path, 'utf8').catch((err: Error) => { throw new Error(`invalid configuration: ${err.message}`); });
  const cfg = obj(parseYAML(text));
  const base = dirname(path);
  const contextName = String(cfg['current-context'] ?? '');
  let context = named(cfg['contexts'], contextName, 'context');
  // client-go's default: with no current context, a single context/cluster/user is used.
  if (Object.keys(context).length === 0 && Array.isArray(cfg['contexts']) && cfg['contexts'].length === 1) context = obj(obj(cfg['contexts'][0])['context']);
  const pick = (listKey: string, key: string, ref: unknown): Obj => {
    const list = cfg[listKey];
    const byRef = named(list, String(ref ?? ''), key);
    if (Object.keys(byRef).length > 0) return byRef;
    return Array.isArray(list) && list.length === 1 ? obj(obj(list[0])[key]) : {};
  };
  const cluster = pick('clusters', 'cluster', context['cluster']);
  const user = pick('users', 'user', context['user']);
  const server = String(cluster['server'] ?? '');
  if (server === '') throw new Error('invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable');
  const data = async (dataKey: string, fileKey: string, from: Obj): Promise<string | undefined> => {
    if (typeof from[dataKey] === 'string') return Buffer.from(from[dataKey], 'base64').toString('utf8');
    if (typeof from[fileKey] === 'string') return readFile(resolve(base, from[fileKey]), 'utf8');
    return undefined;
  };
  const ca = await data('certificate-authority-data', 'certificate-authority', cluster);
  const cert = await data('client-certificate-data', 'client-certificate', user);
  const key = await data('client-key-data', 'client-key', user);
  const token = typeof user['token'] === 'string' ? user['token']
    : typeof user['tokenFile'] === 'string' ? (await readFile(resolve(base, user['tokenFile']), 'utf8')).trim() : undefined;
  return {
    url: new URL(server), insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
    ...(ca !== undefined ? { ca } : {}), ...(cert !== undefined ? { cert } : {}), ...(key !== undefined ? { key } : {}),
    ...(token !== undefined ? { token } : {}),
  };
}

function post(t: WebhookTarget, body: string): Promise<void> {
  return new Promise((ok, fail) => {
    const https = t.url.protocol === 'https:';
    const headers: Record<string, string | number> = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Accept: 'application/json, */*' };
    if (t.token !== undefined) headers['Authorization'] = `Bearer ${t.token}`;
    const opts = {
      method: 'POST', hostname: t.url.hostname.replace(/^\[|\]$/g, ''), port: t.url.port, path: `${t.url.pathname}${t.url.search}`, headers,
      timeout: 30_000,
      ...(https ? { ca: t.ca, cert: t.cert, key: t.key, rejectUnauthorized: !t.insecureSkipTLSVerify } : {}),
    };
    const req = (https ? httpsRequest : httpRequest)(opts, (res) => {
      res.resume();
      res.on('end', () => {
        const code = res.statusCode ?? 0;
        if (code >= 200 && code < 300) ok(); else fail(new Error(`the server responded with the status code ${code} but did not return more information`));
      });
    });
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * Sends a batch as an EventList, retrying up to 5 times with backoff (initial, then x1.5, with
 * jitter) as kube's webhook client does; rejects with the last error.
 */
export function newWebhookWriter(t: WebhookTarget, initialBackoffMs: number): (events: readonly AuditEvent[]) => Promise<void> {
  return async (events) => {
    const body = encodeJSON({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items: events });
    let delay = initialBackoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await post(t, body);
        return;
      } catch (err) {
        if (attempt >= 5) throw err;
        await new Promise((r) => setTimeout(r, delay * (1 + Math.random() * 0.2)));
        delay *= 1.5;
      }
    }
  };
}
