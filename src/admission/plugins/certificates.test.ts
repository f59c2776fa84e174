import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { AdmissionAuthorizer, AuthorizationAttributes } from '../authorizer.ts';
import { assertStatus, attrs, userContext } from '../testing/attributes.ts';
import { certificateApproval, certificateSigning, certificateSubjectRestriction, clusterTrustBundleAttest } from './certificates.ts';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** Allows exactly the (verb, signer) pairs given, recording what it was asked. */
function signerAuthorizer(allowed: readonly string[]): AdmissionAuthorizer & { asked: AuthorizationAttributes[] } {
  const asked: AuthorizationAttributes[] = [];
  return {
    asked,
    authorize: async (a) => {
      asked.push(a);
      return { decision: allowed.includes(`${a.verb} ${a.name}`) ? 'Allow' : 'NoOpinion', reason: '' };
    },
  };
}

const alice = userContext({ name: 'alice', groups: ['system:authenticated'] });
const csrAttrs = { group: 'certificates.k8s.io', resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest', operation: 'UPDATE' as const };
const csr = (status: Record<string, unknown> = {}, signerName = 'example.com/signer'): KubeObject & { spec: unknown; status: unknown } =>
  ({ kind: 'CertificateSigningRequest', metadata: { name: 'req' }, spec: { signerName, request: '' }, status });

describe('CertificateApproval', () => {
  const cases = [
    { name: 'approve on the signer', allowed: ['approve example.com/signer'], ok: true },
    { name: 'approve on the domain wildcard', allowed: ['approve example.com/*'], ok: true },
    { name: 'another verb only', allowed: ['sign example.com/signer'], ok: false },
  ];
  for (const c of cases) {
    it(`${c.ok ? 'allows' : 'refuses'} with ${c.name}`, async () => {
      const authz = signerAuthorizer(c.allowed);
      const p = certificateApproval(authz).validate?.(alice, attrs(csr(), { ...csrAttrs, subresource: 'approval', oldObject: csr() }));
      if (c.ok) await p;
      else await assertStatus(p, 403, 'Forbidden', 'certificatesigningrequests.certificates.k8s.io "req" is forbidden: user not permitted to approve requests with signerName "example.com/signer"');
      assert.deepEqual(authz.asked[0], {
        user: alice.user, verb: 'approve', name: 'example.com/signer', apiGroup: 'certificates.k8s.io', apiVersion: '*', resource: 'signers',
        resourceRequest: true, namespace: '', subresource: '', path: '',
      });
    });
  }
  it('ignores updates of the main resource', async () => {
    await certificateApproval(signerAuthorizer([])).validate?.(alice, attrs(csr(), { ...csrAttrs, oldObject: csr() }));
  });
});

describe('CertificateSigning', () => {
  const cert = { certificate: 'Y2VydA==' };
  it('refuses issuing a certificate without sign on the signer', () =>
    assertStatus(certificateSigning(signerAuthorizer([])).validate?.(alice, attrs(csr(cert), { ...csrAttrs, subresource: 'status', oldObject: csr() })),
      403, 'Forbidden', 'certificatesigningrequests.certificates.k8s.io "req" is forbidden: user not permitted to sign requests with signerName "example.com/signer"'));
  it('allows it with sign', async () => {
    await certificateSigning(signerAuthorizer(['sign example.com/signer'])).validate?.(alice, attrs(csr(cert), { ...csrAttrs, subresource: 'status', oldObject: csr() }));
  });
  it('does not ask when neither the certificate nor the conditions change', async () => {
    const authz = signerAuthorizer([]);
    await certificateSigning(authz).validate?.(alice, attrs(csr(cert), { ...csrAttrs, subresource: 'status', oldObject: csr(cert) }));
    assert.equal(authz.asked.length, 0);
  });
});

describe('CertificateSubjectRestriction', () => {
  const requests: Record<string, string> = {};
  before(async () => {
    const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
    const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
    for (const [k, name] of [['masters', 'CN=root,O=system:masters'], ['devs', 'CN=dev,O=devs']]) {
      const r = await x509.Pkcs10CertificateRequestGenerator.create({ name: name ?? '', keys: keys as unknown as x509.Pkcs10CertificateRequestCreateParams['keys'], signingAlgorithm: alg });
      requests[k ?? ''] = Buffer.from(r.toString('pem')).toString('base64');
    }
  });
  const create = (request: string, signerName: string): KubeObject & { spec: unknown } =>
    ({ kind: 'CertificateSigningRequest', metadata: { name: 'req' }, spec: { signerName, request } });
  it('refuses system:masters for the kube-apiserver-client signer', () =>
    assertStatus(certificateSubjectRestriction().validate?.(alice, attrs(create(requests['masters'] ?? '', 'kubernetes.io/kube-apiserver-client'), { ...csrAttrs, operation: 'CREATE' })),
      403, 'Forbidden', 'certificatesigningrequests.certificates.k8s.io "req" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed'));
  const allowed = [
    { name: 'other groups', request: 'devs', signer: 'kubernetes.io/kube-apiserver-client' },
    { name: 'system:masters for another signer', request: 'masters', signer: 'example.com/signer' },
  ];
  for (const c of allowed) {
    it(`allows ${c.name}`, async () => {
      await certificateSubjectRestriction().validate?.(alice, attrs(create(requests[c.request] ?? '', c.signer), { ...csrAttrs, operation: 'CREATE' }));
    });
  }
});

describe('ClusterTrustBundleAttest', () => {
  const bundle = (signerName: string, owners: unknown[] = []): KubeObject & { spec: unknown } =>
    ({ kind: 'ClusterTrustBundle', metadata: { name: 'b', ownerReferences: owners as never }, spec: { signerName, trustBundle: 'x' } });
  const ctb = { group: 'certificates.k8s.io', version: 'v1beta1', resource: 'clustertrustbundles', kind: 'ClusterTrustBundle' };
  it('admits everything with the ClusterTrustBundle gate off (v1.36 default)', async () => {
    await clusterTrustBundleAttest(signerAuthorizer([]), false).validate?.(alice, attrs(bundle('example.com/s'), ctb));
  });
  it('with the gate on, refuses a bundle for a signer the user may not attest', () =>
    assertStatus(clusterTrustBundleAttest(signerAuthorizer([]), true).validate?.(alice, attrs(bundle('example.com/s'), ctb)),
      403, 'Forbidden', 'clustertrustbundles.certificates.k8s.io "b" is forbidden: user not permitted to attest for signerName "example.com/s"'));
  it('with the gate on, lets an update touch only owner references', async () => {
    const authz = signerAuthorizer([]);
    await clusterTrustBundleAttest(authz, true).validate?.(alice,
      attrs(bundle('example.com/s', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: '1' }]), { ...ctb, operation: 'UPDATE', oldObject: bundle('example.com/s') }));
    assert.equal(authz.asked.length, 0);
  });
});
