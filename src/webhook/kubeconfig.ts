// A webhook's connection from a kubeconfig file (the authentication and authorization webhooks):
// the current context's cluster (server, CA, insecure-skip-tls-verify, tls-server-name) and user
// (client certificate, token, basic auth), with files relative to the kubeconfig's folder.
// Errors are worded as client-go's loader words them.
// Counterpart of webhookutil.LoadKubeconfig (k8s.io/apiserver/pkg/util/webhook/webhook.go) and the
// parts of client-go's clientcmd it uses.
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { yamlToJSON, YAMLConversionError } from '../apimachinery/fieldvalidation/index.ts';
import { goPathError, goQuote } from '../apimachinery/goformat/index.ts';
import type { ClientConfig, ClientCredentials } from './client-config.ts';

const EMPTY_CONFIG = 'invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable';

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Obj | undefined, k: string): string => (o !== undefined && typeof o[k] === 'string' ? o[k] : '');

/** The entry named `name` of a kubeconfig list (clusters, users, contexts), as its inner object. */
function named(list: unknown, name: string, inner: string): Obj | undefined {
  if (name === '' || !Array.isArray(list)) return undefined;
  for (const e of list) if (isObj(e) && e['name'] === name) return isObj(e[inner]) ? e[inner] : {};
  return undefined;
}

const osText = (err: unknown, op: string, path: string): string => goPathError(op, path, err);

/**
 * The client configuration of the webhook the kubeconfig at `path` describes, named `name` in
 * errors. Rejects with client-go's texts: `stat <path>: no such file or directory`, `error loading
 * config file "<path>": yaml: ...`, `invalid configuration: no configuration has been provided, ...`.
 */
export async function loadWebhookKubeconfig(path: string, name: string): Promise<ClientConfig> {
  try { await stat(path); } catch (err) { throw new Error(osText(err, 'stat', path)); }
  let text: string;
  try { text = await readFile(path, 'utf8'); } catch (err) { throw new Error(osText(err, 'open', path)); }
  let doc: unknown;
  try {
    doc = text.trim() === '' ? {} : yamlToJSON(text, false).value;
  } catch (err) {
    const msg = err instanceof YAMLConversionError || err instanceof Error ? err.message : String(err);
    throw new Error(`error loading config file ${goQuote(path)}: ${msg}`);
  }
  const cfg: Obj = isObj(doc) ? doc : {};
  const base = dirname(path);
  const abs = (p: string): string => (isAbsolute(p) ? p : join(base, p));
  const current = str(cfg, 'current-context');
  const context = named(cfg['contexts'], current, 'context');
  if (current !== '' && context === undefined) {
    throw new Error(`invalid configuration: [context was not found for specified context: ${current}, cluster has no server defined]`);
  }
  const clusterName = str(context, 'cluster');
  const cluster = named(cfg['clusters'], clusterName, 'cluster');
  const user = named(cfg['users'], str(context, 'user'), 'user');
  if (cluster === undefined || str(cluster, 'server') === '') {
    if (cluster === undefined) throw new Error(EMPTY_CONFIG);
    throw new Error(`invalid configuration: no server found for cluster ${goQuote(clusterName)}`);
  }
  const readPEM = async (file: string, what: string, owner: string): Promise<string> => {
    try { return await readFile(abs(file), 'utf8'); } catch (err) {
      throw new Error(`invalid configuration: unable to read ${what} ${abs(file)} for ${owner} due to ${osText(err, 'open', abs(file))}`);
    }
  };
  const data = (o: Obj | undefined, k: string): string | undefined => {
    const v = str(o, k);
    return v === '' ? undefined : Buffer.from(v, 'base64').toString('utf8');
  };
  let ca = data(cluster, 'certificate-authority-data');
  if (ca === undefined && str(cluster, 'certificate-authority') !== '') ca = await readPEM(str(cluster, 'certificate-authority'), 'certificate-authority', clusterName);
  const userName = str(context, 'user');
  let certPEM = data(user, 'client-certificate-data');
  if (certPEM === undefined && str(user, 'client-certificate') !== '') certPEM = await readPEM(str(user, 'client-certificate'), 'client-cert', userName);
  let keyPEM = data(user, 'client-key-data');
  if (keyPEM === undefined && str(user, 'client-key') !== '') keyPEM = await readPEM(str(user, 'client-key'), 'client-key', userName);
  let token = str(user, 'token');
  if (token === '' && str(user, 'tokenFile') !== '') token = (await readPEM(str(user, 'tokenFile'), 'tokenFile', userName)).trim();
  const creds: { -readonly [K in keyof ClientCredentials]: ClientCredentials[K] } = {};
  if (certPEM !== undefined) creds.certPEM = certPEM;
  if (keyPEM !== undefined) creds.keyPEM = keyPEM;
  if (token !== '') creds.bearerToken = token;
  else if (str(user, 'username') !== '') creds.basicAuth = { username: str(user, 'username'), password: str(user, 'password') };
  if (cluster['insecure-skip-tls-verify'] === true) creds.insecureSkipTLSVerify = true;
  if (str(cluster, 'tls-server-name') !== '') creds.serverName = str(cluster, 'tls-server-name');
  return {
    name, url: str(cluster, 'server'),
    ...(ca !== undefined ? { caBundle: Buffer.from(ca).toString('base64') } : {}),
    credentials: creds,
  };
}
