// The built-in API groups other than core, in the order kube-apiserver lists them in /apis.
// Counterpart of pkg/controlplane/apiserver (the RESTStorageProviders, in kube's order).
import { apiextensionsGroup } from '../apiextensions/index.ts';
import { apiregistrationGroup } from '../aggregator/install.ts';
import { admissionregistrationGroup } from '../apis/admissionregistration/install.ts';
import { apiserverinternalGroup } from '../apis/apiserverinternal/install.ts';
import { appsGroup } from '../apis/apps/install.ts';
import { authenticationGroup } from '../apis/authentication/install.ts';
import { authorizationGroup, type AuthorizationDeps } from '../apis/authorization/install.ts';
import { autoscalingGroup } from '../apis/autoscaling/install.ts';
import { batchGroup } from '../apis/batch/install.ts';
import { certificatesGroup } from '../apis/certificates/install.ts';
import { coordinationGroup } from '../apis/coordination/install.ts';
import { discoveryGroup } from '../apis/discovery/install.ts';
import { eventsGroup } from '../apis/events/install.ts';
import { flowcontrolGroup } from '../apis/flowcontrol/install.ts';
import { networkingGroup } from '../apis/networking/install.ts';
import { nodeGroup } from '../apis/node/install.ts';
import { policyGroup } from '../apis/policy/install.ts';
import { rbacGroup } from '../apis/rbac/install.ts';
import type { TokenReviewResult } from '../apis/authentication/install.ts';
import { resourceGroupWith } from '../apis/resource/install.ts';
import type { NamespaceLabels } from '../apis/resource/admin-access.ts';
import { schedulingGroup } from '../apis/scheduling/install.ts';
import { storageGroup } from '../apis/storage/install.ts';
import { storagemigrationGroup } from '../apis/storagemigration/install.ts';
import type { APIGroupDefinition } from '../registry/rest/group.ts';
import type { RBACReaders } from '../authz/rbac/snapshot.ts';
import { newAlwaysAllowAuthorizer } from '../authz/factory.ts';

export interface BuiltInGroupOptions {
  /** --event-ttl, for events.k8s.io events (stored as core events). */
  readonly eventTTLSeconds: number;
  /** What TokenReview asks: the server's own token authentication, for these audiences (default the server's). */
  authenticate(token: string, audiences: readonly string[]): Promise<TokenReviewResult | undefined>;
  /**
   * The server's authorizer and rule resolver: access and rules reviews, RBAC's bind and escalate
   * checks. Default (tests): AlwaysAllow, and RBAC writes unchecked.
   */
  readonly authorization?: AuthorizationDeps;
  /** Where RBAC's escalation checks read roles and bindings (storage, not the authorizer's cache). */
  readonly rbacReaders?: RBACReaders;
  /** A namespace's labels, read from storage (DRA's admin-access check); without it there is no check (tests). */
  readonly namespaceLabels?: NamespaceLabels;
}

export function builtInGroups(opts: BuiltInGroupOptions): APIGroupDefinition[] {
  const allow = newAlwaysAllowAuthorizer();
  const authorization = opts.authorization ?? { authorizer: allow, ruleResolver: allow };
  const rbacPolicy = opts.authorization !== undefined && opts.rbacReaders !== undefined
    ? { authorizer: opts.authorization.authorizer, readers: opts.rbacReaders } : undefined;
  return [
    apiregistrationGroup,
    appsGroup,
    eventsGroup(opts.eventTTLSeconds),
    authenticationGroup({ authenticate: opts.authenticate }),
    authorizationGroup(authorization),
    autoscalingGroup,
    batchGroup,
    certificatesGroup,
    networkingGroup,
    policyGroup,
    rbacGroup(rbacPolicy),
    storageGroup,
    admissionregistrationGroup,
    // Ties with admissionregistration.k8s.io in kube's group priority and sorts after it.
    apiextensionsGroup,
    schedulingGroup,
    coordinationGroup,
    nodeGroup,
    discoveryGroup,
    flowcontrolGroup,
    apiserverinternalGroup,
    resourceGroupWith(opts.namespaceLabels),
    storagemigrationGroup,
  ];
}
