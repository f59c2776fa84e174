// Scripted authentication (TokenReview) and authorization (SubjectAccessReview) webhooks for
// end-to-end tests: HTTPS on 127.0.0.1 with a CA of the test's own, every review recorded, the
// answer decided by the test; and the kubeconfig files kube-apiserver reads to reach them.
// No Go counterpart: test helpers.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { newTestPKI, startTestWebhookServer, type TestPKI, type TestWebhookServer } from '../../webhook/testing.ts';

export type Json = Record<string, unknown>;
/** The status to answer with, or a bare HTTP code (500: an error without a Status). */
export type Answer = Json | number;

export interface ScriptedReviewWebhook {
  readonly server: TestWebhookServer;
  /** Every review received, in order. */
  readonly received: Json[];
  /** Writes a kubeconfig pointing at this webhook (path `/review`) and returns its path. */
  writeKubeconfig(dir: string, name: string): Promise<string>;
  close(): Promise<void>;
}

/** A kubeconfig for a webhook at `server` trusting `pki`'s CA. */
export async function writeWebhookKubeconfig(path: string, server: string, pki: TestPKI): Promise<string> {
  await writeFile(path, stringify({
    apiVersion: 'v1', kind: 'Config',
    clusters: [{ name: 'hook', cluster: { server, 'certificate-authority-data': pki.caBundle } }],
    users: [{ name: 'apiserver', user: {} }],
    contexts: [{ name: 'hook', context: { cluster: 'hook', user: 'apiserver' } }],
    'current-context': 'hook',
  }));
  return path;
}

/** A webhook answering each review with `decide(review)` as its status (same apiVersion and kind). */
export async function startReviewWebhook(pki: TestPKI, decide: (review: Json) => Answer): Promise<ScriptedReviewWebhook> {
  const received: Json[] = [];
  const server = await startTestWebhookServer(pki, (_req, body, res) => {
    const review = JSON.parse(body) as Json;
    received.push(review);
    const answer = decide(review);
    if (typeof answer === 'number') {
      res.writeHead(answer, { 'content-type': 'text/plain' });
      res.end('webhook failed');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: review['apiVersion'], kind: review['kind'], status: answer }));
  });
  return {
    server, received,
    writeKubeconfig: (dir, name) => writeWebhookKubeconfig(join(dir, name), `${server.url}/review`, pki),
    close: () => server.close(),
  };
}

export { newTestPKI, type TestPKI };
