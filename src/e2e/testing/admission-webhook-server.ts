// A scripted admission webhook for end-to-end tests: an HTTPS server of the test's own (own CA,
// 127.0.0.1) whose paths answer AdmissionReviews in fixed ways, recording every review it got.
// No Go counterpart: kube's e2e tests deploy sample-webhook images instead.
import { newTestPKI, startTestWebhookServer, type TestPKI, type TestWebhookServer } from '../../webhook/testing.ts';

type Json = Record<string, unknown>;

export interface ReceivedReview {
  readonly path: string;
  readonly review: Json;
  readonly request: Json;
}

/** What a path answers: the response fields besides uid (allowed, status, patch ops, warnings...). */
export type Behaviour = (request: Json) => Json | 'hang' | 'garbage' | RawAnswer;

/** An answer of the webhook's own making: any status code and body. */
export class RawAnswer {
  constructor(readonly status: number, readonly body: string, readonly contentType = 'text/plain') {}
}

export interface ScriptedWebhook {
  readonly pki: TestPKI;
  readonly server: TestWebhookServer;
  readonly received: ReceivedReview[];
  /** Sets what a path answers. */
  on(path: string, b: Behaviour): void;
  /** The reviews a path received, in order. */
  reviews(path: string): Json[];
  clientConfig(path: string): Json;
  close(): Promise<void>;
}

/** A JSON patch response (base64 ops, patchType JSONPatch). */
export const patchResponse = (ops: readonly Json[], more: Json = {}): Json =>
  ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64'), ...more });

export async function startScriptedWebhook(dnsNames: readonly string[] = []): Promise<ScriptedWebhook> {
  const pki = await newTestPKI(dnsNames);
  const behaviours = new Map<string, Behaviour>();
  const received: ReceivedReview[] = [];
  const hanging = new Set<() => void>();
  const server = await startTestWebhookServer(pki, (req, body, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const review = JSON.parse(body) as Json;
    const request = (review['request'] ?? {}) as Json;
    received.push({ path, review, request });
    const b = behaviours.get(path) ?? (() => ({ allowed: true }));
    const out = b(request);
    if (out === 'hang') {
      // Answers only when the test ends (or the caller gives up and closes the connection).
      hanging.add(() => res.destroy());
      return;
    }
    if (out instanceof RawAnswer) {
      res.writeHead(out.status, { 'content-type': out.contentType });
      res.end(out.body);
      return;
    }
    res.setHeader('content-type', 'application/json');
    if (out === 'garbage') { res.end('this is not json'); return; }
    res.end(JSON.stringify({ apiVersion: review['apiVersion'], kind: 'AdmissionReview', response: { uid: request['uid'], ...out } }));
  });
  return {
    pki, server, received,
    on: (path, b) => { behaviours.set(path, b); },
    reviews: (path) => received.filter((r) => r.path === path).map((r) => r.request),
    clientConfig: (path) => ({ url: `${server.url}${path}`, caBundle: pki.caBundle }),
    async close() {
      for (const h of hanging) h();
      await server.close();
    },
  };
}
