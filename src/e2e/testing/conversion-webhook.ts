// A CRD conversion webhook of the tests' own: converts Widgets between v1 (spec.host and
// spec.port) and v2 (spec.address "host:port"), and misbehaves on demand to drive kube's error
// paths (wrong count, uid, apiVersion, changed name, ...). Served over HTTPS on 127.0.0.1 with a
// CA of its own (src/webhook/testing.ts).
// No Go counterpart: the e2e test harness (kube's e2e has a similar crd-conversion-webhook image).
import type { ServerResponse } from 'node:http';
import { startTestWebhookServer, type TestPKI, type TestWebhookServer } from '../../webhook/testing.ts';

export const GROUP = 'conv.example.com';
export const PLURAL = 'widgets';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How the webhook answers the next reviews. */
export type Mode =
  | 'ok' | 'status500' | 'text200' | 'empty200' | 'failure' | 'failureNoMessage' | 'wrongCount' | 'uidMismatch'
  | 'v1beta1Review' | 'noKind' | 'noResponse' | 'changedName' | 'changedUID' | 'changedLabels' | 'invalidLabels'
  | 'changedOtherMeta' | 'wrongApiVersion' | 'wrongKind' | 'noMetadata' | 'hang';

/** The Widget schema of both versions. */
export function widgetCRD(clientConfig: Obj, opts: { reviewVersions?: string[] } = {}): Obj {
  const spec = (props: Obj): Obj => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: props } } } });
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: `${PLURAL}.${GROUP}` },
    spec: {
      group: GROUP, scope: 'Namespaced',
      names: { plural: PLURAL, singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: spec({ host: { type: 'string' }, port: { type: 'integer' } }) },
        { name: 'v2', served: true, storage: false, schema: spec({ address: { type: 'string' } }) },
      ],
      conversion: { strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions: opts.reviewVersions ?? ['v1'] } },
    },
  };
}

/** Converts one Widget to `desired` (the correct conversion). */
export function convertWidget(obj: Obj, desired: string): Obj {
  const out: Obj = structuredClone(obj);
  const spec = isObj(out['spec']) ? out['spec'] : {};
  if (desired === `${GROUP}/v2` && out['apiVersion'] === `${GROUP}/v1`) {
    const { host, port, ...rest } = spec;
    out['spec'] = { ...rest, ...(host !== undefined || port !== undefined ? { address: `${String(host ?? '')}:${String(port ?? '')}` } : {}) };
  } else if (desired === `${GROUP}/v1` && out['apiVersion'] === `${GROUP}/v2`) {
    const { address, ...rest } = spec;
    const [host, port] = typeof address === 'string' ? address.split(':') : [];
    out['spec'] = { ...rest, ...(host !== undefined ? { host } : {}), ...(port !== undefined && port !== '' ? { port: Number(port) } : {}) };
  }
  out['apiVersion'] = desired;
  return out;
}

export interface ConversionWebhook {
  readonly server: TestWebhookServer;
  /** The reviews received so far (request parts). */
  readonly reviews: { uid: string; desiredAPIVersion: string; count: number; apiVersion: string }[];
  mode: Mode;
  close(): Promise<void>;
}

function answer(res: ServerResponse, code: number, body: unknown, contentType = 'application/json'): void {
  res.statusCode = code;
  res.setHeader('content-type', contentType);
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Starts the webhook on `host` (default 127.0.0.1) with `pki`'s serving certificate. */
export async function startConversionWebhook(pki: TestPKI, host?: string): Promise<ConversionWebhook> {
  const hook = { mode: 'ok' as Mode, reviews: [] as ConversionWebhook['reviews'] };
  const server = await startTestWebhookServer(pki, (_req, body, res) => {
    const review = JSON.parse(body) as Obj;
    const request = isObj(review['request']) ? review['request'] : {};
    const uid = String(request['uid'] ?? '');
    const desired = String(request['desiredAPIVersion'] ?? '');
    const objects = (Array.isArray(request['objects']) ? request['objects'] : []) as Obj[];
    hook.reviews.push({ uid, desiredAPIVersion: desired, count: objects.length, apiVersion: String(review['apiVersion'] ?? '') });
    let converted = objects.map((o) => convertWidget(o, desired));
    const meta = (o: Obj): Obj => (isObj(o['metadata']) ? o['metadata'] : (o['metadata'] = {}) as Obj);
    let respUID = uid;
    let result: Obj = { status: 'Success' };
    let reviewApiVersion = String(review['apiVersion'] ?? 'apiextensions.k8s.io/v1');
    switch (hook.mode) {
      case 'ok': break;
      case 'hang': return;
      case 'status500': answer(res, 500, 'conversion exploded', 'text/plain'); return;
      case 'text200': answer(res, 200, 'hello', 'text/plain'); return;
      case 'empty200': answer(res, 200, ''); return;
      case 'failure': result = { status: 'Failure', message: 'widgets cannot be converted today' }; converted = []; break;
      case 'failureNoMessage': result = { status: 'Failure' }; converted = []; break;
      case 'wrongCount': converted = [...converted, ...converted]; break;
      case 'uidMismatch': respUID = 'not-the-uid'; break;
      case 'v1beta1Review': reviewApiVersion = 'apiextensions.k8s.io/v1beta1'; break;
      case 'noKind': answer(res, 200, { response: { uid, convertedObjects: converted, result } }); return;
      case 'noResponse': answer(res, 200, { apiVersion: reviewApiVersion, kind: 'ConversionReview' }); return;
      case 'changedName': for (const o of converted) meta(o)['name'] = 'renamed'; break;
      case 'changedUID': for (const o of converted) meta(o)['uid'] = '00000000-0000-0000-0000-000000000000'; break;
      case 'changedLabels': for (const o of converted) meta(o)['labels'] = { converted: 'yes' }; break;
      case 'invalidLabels': for (const o of converted) meta(o)['labels'] = { 'bad key!': 'x' }; break;
      case 'changedOtherMeta': for (const o of converted) { meta(o)['finalizers'] = ['x.io/f']; meta(o)['generation'] = 99; } break;
      case 'wrongApiVersion': for (const o of converted) o['apiVersion'] = `${GROUP}/v9`; break;
      case 'wrongKind': for (const o of converted) o['kind'] = 'Gadget'; break;
      case 'noMetadata': for (const o of converted) delete o['metadata']; break;
    }
    answer(res, 200, { apiVersion: reviewApiVersion, kind: 'ConversionReview', response: { uid: respUID, convertedObjects: converted, result } });
  }, host);
  return {
    server, reviews: hook.reviews,
    get mode() { return hook.mode; },
    set mode(m: Mode) { hook.mode = m; },
    close: () => server.close(),
  };
}
