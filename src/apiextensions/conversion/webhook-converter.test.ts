import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { StatusError } from '../../apimachinery/errors/status-error.ts';
import { ClientManager } from '../../webhook/client.ts';
import { newTestPKI, startTestWebhookServer, type TestPKI, type TestWebhookServer } from '../../webhook/testing.ts';
import type { CustomResourceDefinition } from '../v1/types.ts';
import { newConverter } from './converter.ts';

type Obj = Record<string, unknown>;
/** How the test webhook rewrites each converted object (after setting the desired apiVersion). */
let rewrite: (o: Obj) => void = () => {};
let reviews: { count: number; apiVersion: string }[] = [];

function crd(url: string, caBundle: string, reviewVersions = ['v1']): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.conv.example.com' },
    spec: {
      group: 'conv.example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true }, { name: 'v2', served: true, storage: false }],
      conversion: { strategy: 'Webhook', webhook: { clientConfig: { url, caBundle }, conversionReviewVersions: reviewVersions } },
    },
  };
}

const widget = (name: string, apiVersion = 'conv.example.com/v1', meta: Obj = {}): KubeObject =>
  ({ apiVersion, kind: 'Widget', metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '5', ...meta }, spec: { n: name } } as KubeObject);

async function failure(p: Promise<unknown>): Promise<StatusError> {
  try { await p; } catch (e) { if (e instanceof StatusError) return e; throw e; }
  throw new Error('expected a StatusError');
}

describe('webhook converter', () => {
  let pki: TestPKI;
  let server: TestWebhookServer;
  before(async () => {
    pki = await newTestPKI();
    server = await startTestWebhookServer(pki, (_req, body, res) => {
      const review = JSON.parse(body) as { apiVersion: string; request: { uid: string; desiredAPIVersion: string; objects: Obj[] } };
      reviews.push({ count: review.request.objects.length, apiVersion: review.apiVersion });
      const converted = review.request.objects.map((o) => {
        const c = structuredClone(o);
        c['apiVersion'] = review.request.desiredAPIVersion;
        rewrite(c);
        return c;
      });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'ConversionReview',
        response: { uid: review.request.uid, result: { status: 'Success' }, convertedObjects: converted } }));
    });
  });
  after(async () => { await server.close(); });

  const converter = (reviewVersions?: string[]) => newConverter(crd(`${server.url}/c`, pki.caBundle, reviewVersions), new ClientManager());

  it('converts a batch in one review, keeping order and skipping objects already converted', async () => {
    rewrite = () => {};
    reviews = [];
    const objs = [widget('a'), widget('b', 'conv.example.com/v2'), widget('c')];
    const out = await converter().convert(objs, 'conv.example.com/v2');
    assert.deepEqual(out.map((o) => [o.metadata.name, o.apiVersion]),
      [['a', 'conv.example.com/v2'], ['b', 'conv.example.com/v2'], ['c', 'conv.example.com/v2']]);
    assert.equal(out[1], objs[1]);
    assert.deepEqual(reviews, [{ count: 2, apiVersion: 'apiextensions.k8s.io/v1' }]);
    reviews = [];
    assert.deepEqual(await converter().convert([objs[1] ?? widget('x')], 'conv.example.com/v2'), [objs[1]]);
    assert.deepEqual(reviews, []);
  });

  it('speaks v1beta1 when the CRD lists it first', async () => {
    rewrite = () => {};
    reviews = [];
    await converter(['v1beta1', 'v1']).convert([widget('a')], 'conv.example.com/v2');
    assert.deepEqual(reviews, [{ count: 1, apiVersion: 'apiextensions.k8s.io/v1beta1' }]);
  });

  it('restores the metadata but for labels and annotations', async () => {
    rewrite = (o) => {
      o['metadata'] = { name: 'a', namespace: 'ns', uid: 'uid-a', labels: { l: 'new' }, finalizers: ['f'], resourceVersion: '9' };
    };
    const [out] = await converter().convert([widget('a', 'conv.example.com/v1', { annotations: { keep: 'no' }, labels: { l: 'old' } })], 'conv.example.com/v2');
    // annotations dropped by the webhook are dropped; everything else is the original's
    assert.deepEqual(out?.metadata, { name: 'a', namespace: 'ns', uid: 'uid-a', resourceVersion: '5', labels: { l: 'new' } });
  });

  const invalid: { name: string; rewrite: (o: Obj) => void; want: string }[] = [
    { name: 'an invalid annotation', rewrite: (o) => { (o['metadata'] as Obj)['annotations'] = { 'bad key!': 'x' }; },
      want: 'conversion webhook for conv.example.com/v1, Kind=Widget returned invalid metadata: metadata.annotation: Invalid value: "bad key!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')' },
    { name: 'a label that is no string', rewrite: (o) => { (o['metadata'] as Obj)['labels'] = { a: 1 }; },
      want: 'conversion webhook for conv.example.com/v1, Kind=Widget returned invalid metadata: metadata.labels[a] must be a string, but is float64 in converted object' },
    { name: 'labels that are no map', rewrite: (o) => { (o['metadata'] as Obj)['labels'] = ['x']; },
      want: 'conversion webhook for conv.example.com/v1, Kind=Widget returned invalid metadata: invalid metadata.labels of type []interface {} in converted object' },
    { name: 'another namespace', rewrite: (o) => { (o['metadata'] as Obj)['namespace'] = 'other'; },
      want: 'conversion webhook for conv.example.com/v1, Kind=Widget returned invalid object: must have the same namespace: ns != other' },
    { name: 'an object without apiVersion', rewrite: (o) => { for (const k of Object.keys(o)) delete o[k]; Object.assign(o, { replaced: true }); },
      want: 'conversion webhook for conv.example.com/v1, Kind=Widget returned invalid object at index 0: invalid groupVersion (expected conv.example.com/v2, received )' },
  ];
  for (const tc of invalid) {
    it(`refuses ${tc.name}`, async () => {
      rewrite = tc.rewrite;
      const err = await failure(converter().convert([widget('a')], 'conv.example.com/v2'));
      assert.equal(err.status.code, 500);
      assert.equal(err.status.reason, '');
      assert.equal(err.message, tc.want);
    });
  }

  it('fails every conversion with the client error when the CA bundle holds no certificate', async () => {
    const c = newConverter(crd(`${server.url}/c`, Buffer.from('junk').toString('base64')), new ClientManager());
    const err = await failure(c.convert([widget('a')], 'conv.example.com/v2'));
    assert.equal(err.status.reason, 'InternalError');
    assert.equal(err.message, 'Internal error occurred: unable to load root certificates: unable to parse bytes as PEM block');
    assert.deepEqual(await c.convert([widget('a', 'conv.example.com/v2')], 'conv.example.com/v2'), [widget('a', 'conv.example.com/v2')]);
  });
});
