// What admission plugins ask the server's authorizer (kube's WantsAuthorizer). The authz layer
// sits beside admission, so the contract is restated here; src/authz's Authorizer satisfies it.
// Counterpart of k8s.io/apiserver/pkg/admission/initializer (WantsAuthorizer) and k8s.io/apiserver/pkg/authorization/authorizer.
import type { UserInfo } from '../apimachinery/request/context.ts';

export interface AuthorizationAttributes {
  readonly user: UserInfo | undefined;
  readonly verb: string;
  readonly resourceRequest: boolean;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly path: string;
}

export interface AdmissionAuthorizer {
  authorize(attributes: AuthorizationAttributes): Promise<{ readonly decision: 'Allow' | 'Deny' | 'NoOpinion'; readonly reason: string; readonly error?: Error }>;
}

/** A resource request's attributes, the fields not given empty (authorizer.AttributesRecord). */
export function resourceAttributes(fields: Partial<AuthorizationAttributes> & { readonly user: UserInfo | undefined; readonly verb: string }): AuthorizationAttributes {
  return { resourceRequest: true, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', path: '', ...fields };
}

/** Whether the authorizer allows it (errors count as no). */
export async function allowed(authz: AdmissionAuthorizer, attrs: AuthorizationAttributes): Promise<boolean> {
  return (await authz.authorize(attrs)).decision === 'Allow';
}
