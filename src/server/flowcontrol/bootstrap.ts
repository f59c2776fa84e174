// The FlowSchemas and PriorityLevelConfigurations kube-apiserver creates and keeps: the mandatory
// ones (exempt and catch-all, restored whatever an operator does; the controller imagines them
// while they are missing) and the suggested ones (created, kept while their autoupdate annotation
// says so). The specs are those kube-apiserver v1.36 stores.
// Counterpart of k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap/default.go.
import type { FlowSchema, PolicyRulesWithSubjects, PriorityLevelConfiguration, ResourcePolicyRule, Subject } from './types.ts';

const API_VERSION = 'flowcontrol.apiserver.k8s.io/v1';

const queued = (name: string, shares: number, lendablePercent: number, queues: number, handSize: number): PriorityLevelConfiguration => ({
  apiVersion: API_VERSION, kind: 'PriorityLevelConfiguration', metadata: { name },
  spec: {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: shares, lendablePercent,
      limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } },
    },
  },
});

export const MANDATORY_PL_EXEMPT: PriorityLevelConfiguration = {
  apiVersion: API_VERSION, kind: 'PriorityLevelConfiguration', metadata: { name: 'exempt' },
  spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } },
};

export const MANDATORY_PL_CATCH_ALL: PriorityLevelConfiguration = {
  apiVersion: API_VERSION, kind: 'PriorityLevelConfiguration', metadata: { name: 'catch-all' },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } },
};

export const SUGGESTED_PLS: readonly PriorityLevelConfiguration[] = [
  queued('system', 30, 33, 64, 6),
  queued('node-high', 40, 25, 64, 6),
  queued('leader-election', 10, 0, 16, 4),
  queued('workload-high', 40, 50, 128, 6),
  queued('workload-low', 100, 90, 128, 6),
  queued('global-default', 20, 50, 128, 6),
];

const user = (name: string): Subject => ({ kind: 'User', user: { name } });
const group = (name: string): Subject => ({ kind: 'Group', group: { name } });
const serviceAccount = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', serviceAccount: { namespace, name } });
const ALL_RESOURCES: ResourcePolicyRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] };
const ALL_NON_RESOURCES = { verbs: ['*'], nonResourceURLs: ['*'] };
const everything = (...subjects: Subject[]): PolicyRulesWithSubjects =>
  ({ subjects, resourceRules: [ALL_RESOURCES], nonResourceRules: [ALL_NON_RESOURCES] });

const flowSchema = (name: string, pl: string, matchingPrecedence: number, distinguisher: 'ByUser' | 'ByNamespace' | undefined,
  ...rules: PolicyRulesWithSubjects[]): FlowSchema => ({
  apiVersion: API_VERSION, kind: 'FlowSchema', metadata: { name },
  spec: {
    priorityLevelConfiguration: { name: pl }, matchingPrecedence,
    ...(distinguisher === undefined ? {} : { distinguisherMethod: { type: distinguisher } }), rules,
  },
});

export const MANDATORY_FS_EXEMPT: FlowSchema = flowSchema('exempt', 'exempt', 1, undefined, everything(group('system:masters')));

export const MANDATORY_FS_CATCH_ALL: FlowSchema = flowSchema('catch-all', 'catch-all', 10000, 'ByUser',
  everything(group('system:unauthenticated'), group('system:authenticated')));

export const SUGGESTED_FSS: readonly FlowSchema[] = [
  flowSchema('system-nodes', 'system', 500, 'ByUser', everything(group('system:nodes'))),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: [group('system:nodes')],
    resourceRules: [
      { verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], clusterScope: true, namespaces: ['*'] },
      { verbs: ['*'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] },
    ],
  }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler'), serviceAccount('kube-system', '*')],
    resourceRules: [{ verbs: ['get', 'create', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] }],
  }),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', everything(user('system:kube-controller-manager'))),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything(user('system:kube-scheduler'))),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', everything(serviceAccount('kube-system', '*'))),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', everything(group('system:serviceaccounts'))),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', everything(group('system:unauthenticated'), group('system:authenticated'))),
  flowSchema('probes', 'exempt', 2, undefined, {
    subjects: [group('system:unauthenticated'), group('system:authenticated')],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
];
