// In-process kapi servers on a shared etcd, each with its own data dir (certificates, token,
// kubeconfig), for the multi-server and fault tests. The data dir outlives `close()` so that a server
// can be started again on it; `dispose()` removes it.
// No Go counterpart: the e2e test harness.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../index.ts';
import { loadAdminCredentials, rawRequest, type AdminCredentials, type RawRequest, type RawResponse } from './https-client.ts';
import { openWatch, type WatchStream } from './watch-stream.ts';

export interface EtcdKapi {
  readonly server: RunningServer;
  readonly creds: AdminCredentials;
  readonly dataDir: string;
  request(req: RawRequest): Promise<RawResponse>;
  /** GET with a JSON body, asserting nothing. */
  getJSON(path: string): Promise<{ status: number; body: unknown }>;
  watch(path: string): Promise<WatchStream>;
  /** Stops the server (the data dir stays). Idempotent. */
  close(): Promise<void>;
  /** Stops the server and removes its data dir. */
  dispose(): Promise<void>;
}

export interface EtcdKapiOptions {
  /** Reuse a data dir (e.g. of a server that was closed); default a new temporary one. */
  readonly dataDir?: string;
  /** More flags after `--etcd-servers`. */
  readonly flags?: readonly string[];
}

/** Starts a kapi server on `--etcd-servers <endpoint>`. */
export async function startKapiOnEtcd(endpoint: string, opts: EtcdKapiOptions = {}): Promise<EtcdKapi> {
  const dataDir = opts.dataDir ?? await mkdtemp(join(tmpdir(), 'kapi-e2e-etcd-'));
  let server: RunningServer;
  try {
    server = await startServer({ dataDir, flags: ['--etcd-servers', endpoint, ...(opts.flags ?? [])] });
  } catch (err) {
    if (opts.dataDir === undefined) await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const creds = await loadAdminCredentials(server.kubeconfigPath);
  const request = (req: RawRequest): Promise<RawResponse> => rawRequest(creds, req);
  const close = (): Promise<void> => server.close();
  return {
    server, creds, dataDir, request,
    async getJSON(path) {
      const r = await request({ method: 'GET', path });
      return { status: r.status, body: r.json() };
    },
    watch: (path) => openWatch(creds, path),
    close,
    async dispose() {
      await close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
