// The certificates admission plugins: approving (the approval subresource) and signing (a change
// of status.certificate or the conditions) a CertificateSigningRequest, and attesting a
// ClusterTrustBundle, need the verb on the signer (`signers` of certificates.k8s.io, by its name
// or its domain's wildcard `example.com/*`); no CSR for the kube-apiserver-client signer may ask
// for the system:masters group.
// Counterpart of plugin/pkg/admission/certificates/{approval,signing,ctbattest,subjectrestriction}
// and pkg/certauthorization.
import { isDeepStrictEqual } from 'node:util';
import { newForbidden } from '../../apimachinery/errors/status-error.ts';
import { loadX509, type X509Lib } from '../../apimachinery/util/x509-lib.ts';
import type { KubeObject, WireObject } from '../../apimachinery/meta/types.ts';
import type { certificatesv1 } from '../../generated/types/index.gen.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import { allowed, resourceAttributes, type AdmissionAuthorizer as Authorizer } from '../authorizer.ts';
import type { Attributes, Plugin } from '../interfaces.ts';
import { admissionName } from './limit-ranger.ts';

const KUBE_APISERVER_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';

type CSRLike = WireObject<certificatesv1.CertificateSigningRequest>;

const forbid = (a: Attributes, msg: string): Error =>
  newForbidden({ group: a.resource.group, resource: a.resource.resource }, admissionName(a), msg);

const isCSR = (a: Attributes, subresource: string): boolean =>
  a.resource.group === 'certificates.k8s.io' && a.resource.resource === 'certificatesigningrequests' && a.subresource === subresource;

/** IsAuthorizedForSignerName: `verb` on the signer itself, else on its domain's wildcard; errors deny. */
export async function isAuthorizedForSignerName(authz: Authorizer, user: UserInfo | undefined, verb: string, signerName: string): Promise<boolean> {
  const ask = (name: string): Promise<boolean> =>
    allowed(authz, resourceAttributes({ user, verb, name, apiGroup: 'certificates.k8s.io', apiVersion: '*', resource: 'signers' }));
  return await ask(signerName) || await ask(`${signerName.split('/')[0] ?? ''}/*`);
}

export function certificateApproval(authz: Authorizer): Plugin {
  return {
    name: 'CertificateApproval',
    handles: (op) => op === 'UPDATE',
    async validate(ctx, a) {
      if (!isCSR(a, 'approval')) return;
      const signer = (a.oldObject as CSRLike | undefined)?.spec?.signerName ?? '';
      if (!await isAuthorizedForSignerName(authz, ctx.user, 'approve', signer)) {
        throw forbid(a, `user not permitted to approve requests with signerName "${signer}"`);
      }
    },
  };
}

export function certificateSigning(authz: Authorizer): Plugin {
  return {
    name: 'CertificateSigning',
    handles: (op) => op === 'UPDATE',
    async validate(ctx, a) {
      if (!isCSR(a, 'status')) return;
      const old = a.oldObject as CSRLike | undefined;
      const cur = a.object as CSRLike | undefined;
      // Semantic equality: a missing list equals an empty one.
      const conds = (c: CSRLike | undefined): unknown[] => c?.status?.conditions ?? [];
      if ((old?.status?.certificate ?? '') === (cur?.status?.certificate ?? '') && isDeepStrictEqual(conds(old), conds(cur))) return;
      const signer = old?.spec?.signerName ?? '';
      if (!await isAuthorizedForSignerName(authz, ctx.user, 'sign', signer)) {
        throw forbid(a, `user not permitted to sign requests with signerName "${signer}"`);
      }
    },
  };
}

/** The organizations (groups) of a PEM CSR's subject; throws Go's text when it does not parse. */
function csrOrganizations(x509: X509Lib, request: string): string[] {
  const pem = Buffer.from(request, 'base64').toString('latin1');
  if (!/-----BEGIN CERTIFICATE REQUEST-----/.test(pem)) throw new Error('PEM block type must be CERTIFICATE REQUEST');
  try {
    return new x509.Pkcs10CertificateRequest(pem).subjectName.getField('O');
  } catch (err) {
    throw new Error(`asn1: structure error: ${(err as Error).message}`);
  }
}

export function certificateSubjectRestriction(): Plugin {
  return {
    name: 'CertificateSubjectRestriction',
    handles: (op) => op === 'CREATE',
    async validate(_ctx, a) {
      if (!isCSR(a, '')) return;
      const spec = (a.object as CSRLike | undefined)?.spec;
      if (spec?.signerName !== KUBE_APISERVER_CLIENT_SIGNER) return;
      const x509 = await loadX509();
      let orgs: string[];
      try {
        orgs = csrOrganizations(x509, spec.request ?? '');
      } catch (err) {
        throw forbid(a, `failed to parse CSR: ${(err as Error).message}`);
      }
      if (orgs.includes('system:masters')) {
        throw forbid(a, `use of ${KUBE_APISERVER_CLIENT_SIGNER} signer with system:masters group is not allowed`);
      }
    },
  };
}

/** IsOnlyMutatingGCFields: the update changes nothing but owner references, finalizers and managed fields. */
export function isOnlyMutatingGCFields(obj: KubeObject, old: KubeObject | undefined): boolean {
  if (old === undefined) return false;
  const strip = (o: KubeObject): unknown => {
    const { ownerReferences: _o, finalizers: _f, managedFields: _m, selfLink: _s, ...meta } = o.metadata as KubeObject['metadata'] & { selfLink?: string };
    return { ...o, metadata: meta };
  };
  return isDeepStrictEqual(strip(obj), strip(old));
}

/**
 * ClusterTrustBundleAttest; `enabled` is the ClusterTrustBundle feature gate (off by default in
 * v1.36, when the plugin admits everything).
 */
export function clusterTrustBundleAttest(authz: Authorizer, enabled: boolean): Plugin {
  return {
    name: 'ClusterTrustBundleAttest',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async validate(ctx, a) {
      if (!enabled || a.resource.group !== 'certificates.k8s.io' || a.resource.resource !== 'clustertrustbundles') return;
      const bundle = a.object as (KubeObject & { spec?: { signerName?: string } }) | undefined;
      const signer = bundle?.spec?.signerName ?? '';
      if (bundle === undefined || signer === '') return;
      if (a.operation === 'UPDATE' && isOnlyMutatingGCFields(bundle, a.oldObject)) return;
      if (!await isAuthorizedForSignerName(authz, ctx.user, 'attest', signer)) {
        throw forbid(a, `user not permitted to attest for signerName "${signer}"`);
      }
    },
  };
}
