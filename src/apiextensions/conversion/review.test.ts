import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { convertedObjectsOf, decodeReview, newReview, reviewVersionFor } from './review.ts';

const TYPE_META = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

// What kube-apiserver v1.36.3 made of these answers of a v1 conversion webhook (after
// "conversion webhook for <gvk> failed: "), asked through the oracle.
describe('ConversionReview answers', () => {
  const v1 = (response: unknown, extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response, ...extra });
  const cases: { name: string; body: string; version?: 'v1' | 'v1beta1'; want: string | unknown[] }[] = [
    { name: 'a good answer', body: v1({ uid: 'u', result: { status: 'Success' }, convertedObjects: [{ a: 1 }] }), want: [{ a: 1 }] },
    { name: 'a text body', body: 'hello', want: `couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${TYPE_META}` },
    { name: 'an HTML body', body: '<html><body>hi</body></html>', want: `couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${TYPE_META}` },
    { name: 'a number', body: '42', want: `couldn't get version/kind; json parse error: json: cannot unmarshal number into Go value of type ${TYPE_META}` },
    { name: 'broken JSON', body: '{ bad', want: "couldn't get version/kind; json parse error: invalid character 'b' looking for beginning of object key string" },
    { name: 'a YAML map without kind', body: 'a: b', want: 'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=' },
    { name: 'null', body: 'null', want: 'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=' },
    { name: 'no kind nor apiVersion', body: JSON.stringify({ response: { uid: 'u' } }), want: 'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=' },
    { name: 'a kind without apiVersion', body: JSON.stringify({ kind: 'ConversionReview', response: {} }),
      want: 'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=ConversionReview' },
    { name: 'an AdmissionReview', body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }),
      want: 'no kind "AdmissionReview" is registered for version "admission.k8s.io/v1" in scheme "pkg/runtime/scheme.go:111"' },
    { name: 'another kind of the group', body: JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' }),
      want: 'converting (v1.CustomResourceDefinition) to (v1.ConversionReview): unknown conversion' },
    { name: 'a v1beta1 review to a v1 request', body: JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview', response: {} }),
      want: 'converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion' },
    { name: 'a uid of the wrong type', body: v1({ uid: 5 }), want: 'json: cannot unmarshal number into Go struct field ConversionResponse.response.uid of type types.UID' },
    { name: 'no response', body: JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' }), want: 'no response provided' },
    { name: 'another uid', body: v1({ uid: 'other', result: { status: 'Success' } }), want: 'expected response.uid="u", got "other"' },
    { name: 'a failure with a message', body: v1({ uid: 'u', result: { status: 'Failure', message: 'nope' } }), want: 'nope' },
    { name: 'a failure without message', body: v1({ uid: 'u', result: { status: 'Failure' } }), want: "response.result.status was 'Failure', not 'Success'" },
    { name: 'v1beta1: uid and kind are not checked', version: 'v1beta1',
      body: JSON.stringify({ response: { uid: 'other', result: { status: 'Success' }, convertedObjects: [] } }), want: [] },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const version = tc.version ?? 'v1';
      let got: string | unknown[];
      try { got = convertedObjectsOf(decodeReview(tc.body, version), version, 'u'); } catch (e) { got = e instanceof Error ? e.message : String(e); }
      assert.deepEqual(got, tc.want);
    });
  }

  it('speaks the first review version kube knows', () => {
    assert.equal(reviewVersionFor(['v3', 'v1beta1', 'v1']), 'v1beta1');
    assert.equal(reviewVersionFor(['v1', 'v1beta1']), 'v1');
    assert.throws(() => reviewVersionFor(['v3']), /no supported conversion review versions/);
  });

  it('sends the request with the empty response Go encodes', () => {
    assert.deepEqual(newReview('v1', 'u', 'g/v2', [{ a: 1 }]), {
      kind: 'ConversionReview', apiVersion: 'apiextensions.k8s.io/v1',
      request: { uid: 'u', desiredAPIVersion: 'g/v2', objects: [{ a: 1 }] },
      response: { uid: '', convertedObjects: null, result: { metadata: {} } },
    });
  });
});
