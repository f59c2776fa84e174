// What admission plugins ask the server's authorizer (kube's WantsAuthorizer), on the shared
// authorizer contract.
// Counterpart of k8s.io/apiserver/pkg/admission/initializer (WantsAuthorizer).
import { attributesRecord, type Attributes, type Authorizer } from '../apimachinery/authorization/authorizer.ts';
import type { UserInfo } from '../apimachinery/request/context.ts';

export type AuthorizationAttributes = Attributes;
export type AdmissionAuthorizer = Authorizer;

/** A resource request's attributes, the fields not given empty (authorizer.AttributesRecord). */
export function resourceAttributes(fields: Partial<Attributes> & { readonly user: UserInfo | undefined; readonly verb: string }): Attributes {
  return attributesRecord({ resourceRequest: true, ...fields });
}

/** Whether the authorizer allows it (errors count as no). */
export async function allowed(authz: AdmissionAuthorizer, attrs: AuthorizationAttributes): Promise<boolean> {
  return (await authz.authorize(attrs)).decision === 'Allow';
}
