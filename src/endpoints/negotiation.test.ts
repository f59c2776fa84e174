import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../apimachinery/errors/status-error.ts';
import { cachedAcceptLength, checkRouteAccept, MEDIA_TYPES, negotiate, parseAccept, patchType, tryNegotiate } from './negotiation.ts';

test('parseAccept orders clauses as goautoneg does: q, then concrete before wildcard', () => {
  const got = parseAccept('*/*;q=0.8, application/*, application/json;as=Table;g=meta.k8s.io;v=v1, text/plain;q=0');
  assert.deepEqual(got.map((r) => `${r.type}/${r.subtype};q=${r.q}`), [
    'application/json;q=1', 'application/*;q=1', '*/*;q=0.8', 'text/plain;q=0',
  ]);
  assert.deepEqual(got[0]?.params, { as: 'Table', g: 'meta.k8s.io', v: 'v1' });
});

test('negotiate: first clause a serializer matches and the endpoint allows', () => {
  const cases = [
    { name: 'no header', accept: undefined, opts: {}, want: 'application/json' },
    { name: 'protobuf for a built-in kind', accept: 'application/vnd.kubernetes.protobuf, application/json', opts: { protobuf: true }, want: 'application/vnd.kubernetes.protobuf' },
    { name: 'protobuf refused for a custom resource', accept: 'application/vnd.kubernetes.protobuf, application/json', opts: {}, want: 'application/json' },
    { name: 'a q=0 clause still counts, as in kube', accept: 'application/yaml;q=0', opts: {}, want: 'application/yaml' },
    // kube answers a transformed object with the serializer's media type alone.
    { name: 'Table as JSON', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io', opts: { allowTable: true }, want: 'application/json' },
    { name: 'Table as YAML', accept: 'application/yaml;as=Table;v=v1;g=meta.k8s.io', opts: { allowTable: true }, want: 'application/yaml' },
    { name: 'PartialObjectMetadata as protobuf', accept: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
      opts: { allowPartialMetadata: true }, want: 'application/vnd.kubernetes.protobuf' },
    { name: 'PartialObjectMetadataList v1beta1', accept: 'application/json;as=PartialObjectMetadataList;v=v1beta1;g=meta.k8s.io',
      opts: { allowPartialMetadata: true, list: true }, want: 'application/json' },
    { name: 'no transform for errors', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io, application/yaml', opts: { restrictions: 'default' as const }, want: 'application/yaml' },
    { name: 'errors may be protobuf', accept: 'application/vnd.kubernetes.protobuf', opts: { restrictions: 'default' as const }, want: 'application/vnd.kubernetes.protobuf' },
    { name: 'aggregated discovery v2 only', accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList, application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
      opts: { restrictions: 'discovery' as const }, want: 'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
    { name: 'a stream other than watch', accept: 'application/json;stream=other, application/yaml', opts: {}, want: 'application/yaml' },
  ];
  for (const c of cases) assert.equal(tryNegotiate(c.accept, c.opts)?.contentType, c.want, c.name);
  assert.equal(tryNegotiate('application/json', { restrictions: 'discovery' }), undefined);
  assert.throws(() => negotiate('text/plain', {}), (e: unknown) => e instanceof StatusError && e.status.code === 406
    && e.status.message === `only the following media types are accepted: ${MEDIA_TYPES.join(', ')}` && e.status.details === undefined);
});

test('checkRouteAccept: go-restful compares bare media types with what the route produces', () => {
  for (const accept of [undefined, '', '*/*', 'text/html, application/json;as=Foo', 'application/yaml;q=0']) {
    assert.doesNotThrow(() => checkRouteAccept(accept, MEDIA_TYPES), String(accept));
  }
  for (const accept of ['text/plain', 'application/*', 'application/JSON']) {
    assert.throws(() => checkRouteAccept(accept, MEDIA_TYPES), (e: unknown) => e instanceof StatusError && e.status.code === 406
      && e.status.reason === 'NotAcceptable' && e.status.message === `406: Not Acceptable\n\nAvailable representations: ${MEDIA_TYPES.join(', ')}`
      && JSON.stringify(e.status.details) === '{}', accept);
  }
});

test('patchType: go-restful\'s 415 for built-in routes, the handler\'s for custom resources', () => {
  const all = ['json-patch', 'merge-patch', 'strategic-merge-patch', 'apply-yaml'] as const;
  assert.equal(patchType('application/merge-patch+json; charset=utf-8', all, { contentLength: 2 }), 'merge-patch');
  const cases = [
    { name: 'with a body', route: { contentLength: 2 }, message: '415: Unsupported Media Type' },
    { name: 'without a body', route: { contentLength: 0 }, message: '415: Unsupported Media Type\n\nAvailable representations: ' },
    { name: 'custom resource', route: undefined, message: 'the body of the request was in an unknown format - accepted media types include: '
      + 'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml' },
  ];
  for (const c of cases) {
    assert.throws(() => patchType('text/plain', all, c.route), (e: unknown) => e instanceof StatusError && e.status.code === 415
      && e.status.reason === 'UnsupportedMediaType' && e.status.message === c.message, c.name);
  }
});

test('patchType: go-restful matches a trimmed, comma-separated type; kube\'s handler takes the header up to ";" as it is', () => {
  const all = ['json-patch', 'merge-patch', 'strategic-merge-patch', 'apply-yaml'] as const;
  const handler415 = 'the body of the request was in an unknown format - accepted media types include: '
    + 'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml';
  const cases = [
    { name: 'parameters', ct: 'application/merge-patch+json;;;', want: 'merge-patch' },
    { name: 'apply yaml', ct: 'application/apply-patch+yaml; charset=utf-8', want: 'apply-yaml' },
    { name: 'space before ";"', ct: 'application/merge-patch+json ;x', message: handler415 },
    { name: 'a list', ct: 'text/plain, application/merge-patch+json', message: handler415 },
    { name: 'apply as JSON (no such type in kube 1.36)', ct: 'application/apply-patch+json', message: '415: Unsupported Media Type' },
    { name: 'leading ";"', ct: ';application/merge-patch+json', message: '415: Unsupported Media Type' },
  ];
  for (const c of cases) {
    const run = (): string => patchType(c.ct, all, { contentLength: 2 });
    if (c.want !== undefined) assert.equal(run(), c.want, c.name);
    else assert.throws(run, (e: unknown) => e instanceof StatusError && e.status.code === 415 && e.status.message === c.message, c.name);
  }
});

test('parseAccept keeps no long header in its cache (a header may be 1 MiB)', () => {
  const long = 'x'.repeat(100_000);
  assert.equal(parseAccept(`application/${long}`)[0]?.subtype, long);
  assert.ok(cachedAcceptLength() < 1000);
});
