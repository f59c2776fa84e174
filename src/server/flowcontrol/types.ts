// The flowcontrol.apiserver.k8s.io/v1 shapes the APF controller reads: FlowSchema and
// PriorityLevelConfiguration as stored (wire JSON). The server layer cannot import the API
// group's own types (src/apis is above it), so the fields it needs are named here.
// Counterpart of k8s.io/api/flowcontrol/v1 (the fields k8s.io/apiserver/pkg/util/flowcontrol reads).
import type { KubeObject } from '../../apimachinery/meta/types.ts';

export interface Subject {
  kind?: string;
  user?: { name?: string };
  group?: { name?: string };
  serviceAccount?: { namespace?: string; name?: string };
}

export interface ResourcePolicyRule {
  verbs?: string[]; apiGroups?: string[]; resources?: string[]; clusterScope?: boolean; namespaces?: string[];
}

export interface NonResourcePolicyRule { verbs?: string[]; nonResourceURLs?: string[] }

export interface PolicyRulesWithSubjects {
  subjects?: Subject[];
  resourceRules?: ResourcePolicyRule[];
  nonResourceRules?: NonResourcePolicyRule[];
}

export interface FlowSchemaCondition {
  type?: string; status?: string; lastTransitionTime?: string; reason?: string; message?: string;
}

export interface FlowSchema extends KubeObject {
  spec?: {
    priorityLevelConfiguration?: { name?: string };
    matchingPrecedence?: number;
    distinguisherMethod?: { type?: string };
    rules?: PolicyRulesWithSubjects[];
  };
  status?: { conditions?: FlowSchemaCondition[] };
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
  status?: Record<string, unknown>;
}

/** The annotation that lets the config producer keep an object's spec in step with its own. */
export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';
