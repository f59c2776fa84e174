// The static admin token `kapi serve` writes into the admin kubeconfig.
// No Go counterpart: kube-apiserver has no admin token of its own (kubeadm writes the admin's
// credentials).
import type { UserInfo } from '../apimachinery/request/context.ts';
import { SYSTEM_PRIVILEGED_GROUP, type TokenAuthenticator } from './authenticator.ts';
import { newStaticTokenAuthenticator } from './token-file.ts';

/** In system:masters, which kube's authorizer lets do anything; system:authenticated is added by the chain. */
export const ADMIN_USER: UserInfo = { name: 'kapi-admin', groups: [SYSTEM_PRIVILEGED_GROUP] };

export function newAdminTokenAuthenticator(token: string, user: UserInfo = ADMIN_USER): TokenAuthenticator {
  return newStaticTokenAuthenticator(new Map([[token, user]]));
}
