// The admin kubeconfig written by `kapi serve` (the shape of clientcmd's v1.Config).
// Counterpart of k8s.io/client-go/tools/clientcmd/api/v1.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface AdminKubeconfigOptions {
  /** e.g. https://127.0.0.1:6443 */
  readonly server: string;
  readonly caCert: string;
  readonly token: string;
  /** A client certificate and key (PEM) offered besides the token. */
  readonly clientCert?: { readonly cert: string; readonly key: string };
  readonly clusterName?: string;
  readonly userName?: string;
  readonly contextName?: string;
  readonly namespace?: string;
}

/** A type, not an interface, so that it is a YamlValue (object types have implicit index signatures). */
export type Kubeconfig = {
  apiVersion: 'v1';
  kind: 'Config';
  clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { name: string; user: { token: string; 'client-certificate-data'?: string; 'client-key-data'?: string } }[];
  contexts: { name: string; context: { cluster: string; user: string; namespace?: string } }[];
  'current-context': string;
  preferences: Record<string, never>;
};

const DEFAULT_CLUSTER_NAME = 'kapi';
const DEFAULT_USER_NAME = 'kapi-admin';

/** `https://<host>:<port>`, bracketing IPv6 literals. */
export function serverURL(host: string, port: number): string {
  return host.includes(':') ? `https://[${host}]:${port}` : `https://${host}:${port}`;
}

export function adminKubeconfig(opts: AdminKubeconfigOptions): Kubeconfig {
  const cluster = opts.clusterName ?? DEFAULT_CLUSTER_NAME;
  const user = opts.userName ?? DEFAULT_USER_NAME;
  const contextName = opts.contextName ?? `${user}@${cluster}`;
  const context: { cluster: string; user: string; namespace?: string } = { cluster, user };
  if (opts.namespace !== undefined) context.namespace = opts.namespace;
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster, cluster: {
      server: opts.server,
      'certificate-authority-data': Buffer.from(opts.caCert, 'utf8').toString('base64'),
    } }],
    users: [{ name: user, user: {
      ...(opts.clientCert !== undefined ? {
        'client-certificate-data': Buffer.from(opts.clientCert.cert, 'utf8').toString('base64'),
        'client-key-data': Buffer.from(opts.clientCert.key, 'utf8').toString('base64'),
      } : {}),
      token: opts.token,
    } }],
    contexts: [{ name: contextName, context }],
    'current-context': contextName,
    preferences: {},
  };
}

export type YamlValue = string | readonly YamlValue[] | { readonly [key: string]: YamlValue | undefined };

/**
 * Block YAML of strings, lists and maps, every string double-quoted as JSON (a JSON string is a
 * YAML double-quoted scalar). Written at every start: the yaml package's first stringify costs
 * tens of milliseconds of warm-up, this costs none.
 */
export function toBlockYAML(value: YamlValue, indent = ''): string {
  const key = (k: string): string => (/^[A-Za-z][A-Za-z0-9_-]*$/.test(k) ? k : JSON.stringify(k));
  if (typeof value === 'string') return `${JSON.stringify(value)}\n`;
  if (Array.isArray(value)) {
    const items = value as readonly YamlValue[];
    if (items.length === 0) return '[]\n';
    return items.map((v) => `${indent}- ${toBlockYAML(v, `${indent}  `).slice(indent.length + 2)}`).join('');
  }
  const entries = Object.entries(value as { readonly [key: string]: YamlValue | undefined })
    .filter((e): e is [string, YamlValue] => e[1] !== undefined);
  if (entries.length === 0) return '{}\n';
  return entries.map(([k, v]) => {
    const scalar = typeof v === 'string' || (Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0);
    return scalar ? `${indent}${key(k)}: ${toBlockYAML(v)}` : `${indent}${key(k)}:\n${toBlockYAML(v, `${indent}  `)}`;
  }).join('');
}

/** Writes the admin kubeconfig as YAML with mode 0600 (it holds a credential), replacing any old file. */
export async function writeAdminKubeconfig(path: string, opts: AdminKubeconfigOptions): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, toBlockYAML(adminKubeconfig(opts)), { mode: 0o600 });
  await rename(tmp, path);
}
