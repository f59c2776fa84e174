// flowcontrol.apiserver.k8s.io/v1 wire types (fields kapi reads).
// Counterpart of k8s.io/api/flowcontrol/v1.
import type { KubeObject } from '../../../apimachinery/meta/types.ts';

export interface FlowSchema extends KubeObject {
  spec?: {
    priorityLevelConfiguration?: { name?: string };
    matchingPrecedence?: number;
    distinguisherMethod?: { type?: string };
    rules?: PolicyRulesWithSubjects[];
  };
  status?: { conditions?: { type?: string; status?: string }[] };
}

export interface PolicyRulesWithSubjects {
  subjects?: {
    kind?: string;
    user?: { name?: string };
    group?: { name?: string };
    serviceAccount?: { namespace?: string; name?: string };
  }[];
  resourceRules?: { verbs?: string[]; apiGroups?: string[]; resources?: string[]; clusterScope?: boolean; namespaces?: string[] }[];
  nonResourceRules?: { verbs?: string[]; nonResourceURLs?: string[] }[];
}

export interface QueuingConfiguration { queues?: number; handSize?: number; queueLengthLimit?: number }

export interface PriorityLevelConfiguration extends KubeObject {
  spec?: {
    type?: string;
    limited?: {
      nominalConcurrencyShares?: number;
      lendablePercent?: number;
      borrowingLimitPercent?: number;
      limitResponse?: { type?: string; queuing?: QueuingConfiguration };
    };
    exempt?: { nominalConcurrencyShares?: number; lendablePercent?: number };
  };
  status?: { conditions?: Record<string, unknown>[] };
}
