import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { before, describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext, type RequestContext } from '../../../apimachinery/request/context.ts';
import type { CertificateSigningRequest } from '../v1/types.ts';
import { certificateSigningRequests, csrCondition } from './csr.ts';
import { csrApprovalStrategy, csrStatusStrategy, csrStrategy } from './strategy.ts';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
const ctx = systemContext();
const userCtx: RequestContext = { ...ctx, user: { name: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } } };
let requestB64 = '';

before(async () => {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: 'CN=alice', keys: keys as unknown as x509.Pkcs10CertificateRequestCreateParams['keys'], signingAlgorithm: alg });
  requestB64 = Buffer.from(csr.toString('pem')).toString('base64');
});

const csr = (spec: Partial<NonNullable<CertificateSigningRequest['spec']>> = {}, status?: CertificateSigningRequest['status']): CertificateSigningRequest => ({
  metadata: { name: 'req' },
  spec: { request: requestB64, signerName: 'example.com/signer', usages: ['client auth'], ...spec },
  ...(status === undefined ? {} : { status }),
});

describe('certificatesigningrequests', () => {
  it('records the requesting user and clears status on create', () => {
    const o = csr({ username: 'mallory', groups: ['system:masters'] }, { conditions: [{ type: 'Approved', status: 'True' }] });
    csrStrategy.prepareForCreate(userCtx, o);
    assert.deepEqual(o.spec, {
      request: requestB64, signerName: 'example.com/signer', usages: ['client auth'],
      username: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] },
    });
    assert.deepEqual(o.status, {});
  });

  it('accepts a well-formed self-signed request', () => assert.deepEqual(csrStrategy.validate(ctx, csr()), []));

  const invalid: { name: string; obj: () => CertificateSigningRequest; want: string[] }[] = [
    { name: 'not PEM', obj: () => csr({ request: Buffer.from('hi').toString('base64') }),
      want: ['spec.request: Invalid value: "aGk=": PEM block type must be CERTIFICATE REQUEST'] },
    { name: 'no usages', obj: () => csr({ usages: [] }), want: ['spec.usages: Required value'] },
    { name: 'unknown and duplicate usages', obj: () => csr({ usages: ['client auth', 'client auth', 'flying'] }),
      want: ['spec.usages[2]: Unsupported value: "flying": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"',
        'spec.usages[1]: Duplicate value: "client auth"'] },
    { name: 'missing signer', obj: () => csr({ signerName: '' }), want: ['spec.signerName: Required value'] },
    { name: 'signer without path', obj: () => csr({ signerName: 'example.com' }),
      want: ["spec.signerName: Invalid value: \"example.com\": must be a fully qualified domain and path of the form 'example.com/signer-name'"] },
    { name: 'single-label signer domain', obj: () => csr({ signerName: 'example/signer' }),
      want: ['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots'] },
    { name: 'legacy signer', obj: () => csr({ signerName: 'kubernetes.io/legacy-unknown' }),
      want: ['spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version'] },
    { name: 'short expiration', obj: () => csr({ expirationSeconds: 599 }),
      want: ['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)'] },
  ];
  for (const c of invalid) it(c.name, () => assert.deepEqual(csrStrategy.validate(ctx, c.obj()).map(formatFieldError), c.want));

  it('rejects a request whose signature does not verify', () => {
    const pem = Buffer.from(requestB64, 'base64').toString();
    const body = pem.split('\n').filter((l) => !l.startsWith('-----')).join('');
    const der = Buffer.from(body, 'base64');
    der[der.length - 3] = (der[der.length - 3] ?? 0) ^ 0xff;
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    const errs = csrStrategy.validate(ctx, csr({ request: Buffer.from(tampered).toString('base64') })).map(formatFieldError);
    assert.equal(errs.length, 1);
    assert.match(errs[0] ?? '', /^spec\.request: Invalid value: "LS0t[A-Za-z0-9+/=]*": x509: ECDSA verification failure$/);
  });

  it('main resource updates keep spec and status', () => {
    const old = csr({ username: 'alice' }, { conditions: [{ type: 'Approved', status: 'True' }] });
    const next = csr({ usages: ['server auth'] }, {});
    next.metadata.labels = { a: 'b' };
    csrStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.spec, old.spec);
    assert.deepEqual(next.status, old.status);
    assert.deepEqual(csrStrategy.validateUpdate(ctx, next, old), []);
  });

  it('status may not add Approved; approval may', () => {
    const old = csr({}, {});
    const withApproval = (): CertificateSigningRequest => csr({}, { conditions: [{ type: 'Approved', status: 'True', reason: 'OK' }] });
    const viaStatus = withApproval();
    csrStatusStrategy.prepareForUpdate(ctx, viaStatus, old);
    assert.deepEqual(csrStatusStrategy.validateUpdate(ctx, viaStatus, old).map(formatFieldError), [
      'status.conditions: Forbidden: updates may not add a condition of type "Approved"',
    ]);
    const viaApproval = withApproval();
    csrApprovalStrategy.prepareForUpdate(ctx, viaApproval, old);
    assert.deepEqual(csrApprovalStrategy.validateUpdate(ctx, viaApproval, old), []);
    const cond = viaApproval.status?.conditions?.[0];
    assert.ok(cond?.lastUpdateTime !== undefined && cond.lastTransitionTime !== undefined);
  });

  it('approval keeps the certificate and rejects Approved with Denied', () => {
    const old = csr({}, {});
    const next = csr({}, { certificate: 'Zm9v', conditions: [{ type: 'Approved', status: 'True' }, { type: 'Denied', status: 'True' }] });
    csrApprovalStrategy.prepareForUpdate(ctx, next, old);
    assert.equal(next.status?.certificate, undefined);
    assert.deepEqual(csrApprovalStrategy.validateUpdate(ctx, next, old).map(formatFieldError), [
      'status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
    ]);
  });

  it('status may set a certificate but only CERTIFICATE PEM', () => {
    const old = csr({}, {});
    const next = csr({}, { certificate: Buffer.from('junk').toString('base64') });
    csrStatusStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(csrStatusStrategy.validateUpdate(ctx, next, old).map(formatFieldError), [
      'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
    ]);
  });

  it('table cells', () => {
    assert.deepEqual(certificateSigningRequests.table.map((c) => c.name), ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
    const o = csr({ username: 'alice', expirationSeconds: 3600 }, { conditions: [{ type: 'Approved', status: 'True' }], certificate: 'eA==' });
    assert.deepEqual(certificateSigningRequests.table.slice(2).map((c) => c.cell(o, 0)), ['example.com/signer', 'alice', '60m', 'Approved,Issued']);
    assert.equal(csrCondition(csr({}, { conditions: [{ type: 'Denied', status: 'True' }, { type: 'Failed', status: 'True' }] })), 'Denied,Failed');
    assert.equal(csrCondition(csr()), 'Pending');
  });

  it('selects by spec.signerName', () => {
    assert.deepEqual(certificateSigningRequests.selectableFields(csr()), { 'metadata.name': 'req', 'spec.signerName': 'example.com/signer' });
  });
});
