// Reads what the benchmark needs from kapi's admin kubeconfig: server URL, CA, bearer token.
// No Go counterpart: the bench.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

export interface AdminCredentials {
  readonly server: string;
  /** PEM. */
  readonly ca: string;
  readonly token: string;
}

function at(v: unknown, key: string | number): unknown {
  if (typeof v !== 'object' || v === null) return undefined;
  return (v as Record<string | number, unknown>)[key];
}

function str(v: unknown, what: string): string {
  if (typeof v !== 'string' || v === '') throw new Error(`kubeconfig: missing ${what}`);
  return v;
}

/** Parses a kubeconfig document; throws naming the first missing field. */
export function parseAdminKubeconfig(text: string): AdminCredentials {
  const doc: unknown = parse(text);
  const cluster = at(at(at(doc, 'clusters'), 0), 'cluster');
  const user = at(at(at(doc, 'users'), 0), 'user');
  return {
    server: str(at(cluster, 'server'), 'clusters[0].cluster.server'),
    ca: Buffer.from(str(at(cluster, 'certificate-authority-data'), 'certificate-authority-data'), 'base64').toString('utf8'),
    token: str(at(user, 'token'), 'users[0].user.token'),
  };
}

export async function readAdminKubeconfig(path: string): Promise<AdminCredentials> {
  return parseAdminKubeconfig(await readFile(path, 'utf8'));
}
