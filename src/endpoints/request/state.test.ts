// negotiation.isPrettyPrint: which requests get indented JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RequestState } from './state.ts';

test('isPrettyPrint follows kube: a non-empty pretty parameter decides, else the user agent', () => {
  const cases = [
    { name: 'pretty=true', url: '/api?pretty=true', ua: undefined, want: true },
    { name: 'pretty=1', url: '/api?pretty=1', ua: undefined, want: true },
    { name: 'ParseBool spellings: True, t, T, TRUE', url: '/api?pretty=True', ua: undefined, want: true },
    { name: 'pretty=t', url: '/api?pretty=t', ua: undefined, want: true },
    { name: 'pretty=false', url: '/api?pretty=false', ua: undefined, want: false },
    { name: 'pretty=yes is no boolean: false', url: '/api?pretty=yes', ua: 'curl/8.5.0', want: false },
    { name: 'pretty=false beats curl', url: '/api?pretty=false', ua: 'curl/8.5.0', want: false },
    { name: 'empty pretty falls back to the user agent', url: '/api?pretty=', ua: 'curl/8.5.0', want: true },
    { name: 'bare pretty falls back to the user agent', url: '/api?pretty', ua: undefined, want: false },
    { name: 'the first value counts', url: '/api?pretty=1&pretty=0', ua: undefined, want: true },
    { name: 'first value false', url: '/api?pretty=0&pretty=1', ua: undefined, want: false },
    { name: 'another parameter naming pretty', url: '/api?xpretty=1', ua: 'Wget/1.21', want: true },
    { name: 'a pair with a semicolon is dropped', url: '/api?pretty=1;x', ua: undefined, want: false },
    { name: 'an escaped key is not seen: kube looks for "pretty" in the raw query first', url: '/api?pre%74ty=1', ua: undefined, want: false },
    { name: 'an escaped key next to a literal one', url: '/api?pre%74ty=1&pretty=', ua: undefined, want: true },
    { name: 'curl', url: '/api', ua: 'curl/8.5.0', want: true },
    { name: 'Wget', url: '/api', ua: 'Wget/1.21', want: true },
    { name: 'a browser', url: '/api', ua: 'Mozilla/5.0 (X11; Linux x86_64)', want: true },
    { name: 'prefixes are case-sensitive', url: '/api', ua: 'Curl/8', want: false },
    { name: 'an old browser', url: '/api', ua: 'Mozilla/4.0', want: false },
    { name: 'kubectl', url: '/api', ua: 'kubectl/v1.35.0 (linux/amd64) kubernetes/abc', want: false },
    { name: 'no user agent', url: '/api', ua: undefined, want: false },
  ];
  for (const c of cases) assert.equal(new RequestState(c.url, undefined, c.ua).isPrettyPrint(), c.want, c.name);
});

test('audit annotations: the first value of a key stays (audit.AddAuditAnnotation), and the context carries the recorder', () => {
  const s = new RequestState('/api/v1/namespaces/ns/pods');
  s.info = {
    isResourceRequest: true, path: '/api/v1/namespaces/ns/pods', verb: 'create', apiPrefix: 'api', apiGroup: '', apiVersion: 'v1',
    namespace: 'ns', resource: 'pods', subresource: '', name: '', parts: ['pods'],
  };
  const ctx = s.context();
  ctx.audit?.addAuditAnnotation('a', '1');
  ctx.audit?.addAuditAnnotation('a', '2');
  ctx.audit?.addAuditAnnotation('b', '3');
  assert.deepEqual([...s.auditAnnotations], [['a', '1'], ['b', '3']]);
});
