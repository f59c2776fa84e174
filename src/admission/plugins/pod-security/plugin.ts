// The PodSecurity admission plugin (validating, on create and update): runs the decision for
// namespaces, pods and workload resources and hands its warnings to the response, its audit
// annotations to the request (prefixed pod-security.kubernetes.io/), and its refusal to the client.
// Counterpart of k8s.io/kubernetes/plugin/pkg/admission/security/podsecurity/admission.go.
import type { RequestContext } from '../../../apimachinery/request/context.ts';
import type { Namespace } from '../../../generated/types/corev1.gen.ts';
import type { Attributes, Operation, Plugin } from '../../interfaces.ts';
import { AUDIT_ANNOTATION_PREFIX } from './api.ts';
import { PodSecurityAdmission } from './admission.ts';
import { DEFAULT_POD_SECURITY_CONFIGURATION, type PodSecurityConfiguration } from './config.ts';
import type { ListedPod } from './namespace-pods.ts';
import { hasPodSpec } from './pod-specs.ts';
import { Evaluator } from './policy/registry.ts';

export const POD_SECURITY_PLUGIN_NAME = 'PodSecurity';

export interface PodSecuritySources {
  /** Resolves undefined when the namespace does not exist (an informer's cache, then storage). */
  readonly getNamespace: (name: string) => Promise<Namespace | undefined>;
  /** The pods of a namespace (an informer's cache). */
  readonly listPods: (namespace: string) => Promise<readonly ListedPod[]>;
}

export function podSecurityAdmission(sources: PodSecuritySources, config: PodSecurityConfiguration = DEFAULT_POD_SECURITY_CONFIGURATION): Plugin {
  const admission = new PodSecurityAdmission({ config, evaluator: new Evaluator(), ...sources });
  return {
    name: POD_SECURITY_PLUGIN_NAME,
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE',
    async validate(ctx: RequestContext, a: Attributes): Promise<void> {
      const { group, resource } = a.resource;
      if (!hasPodSpec(group, resource) || (a.operation !== 'CREATE' && a.operation !== 'UPDATE')) return;
      const isNamespace = group === '' && resource === 'namespaces';
      const decision = await admission.validate({
        operation: a.operation, group, resource, subresource: a.subresource, kindGroup: a.kind.group, kind: a.kind.kind,
        name: a.name,
        // kube's create handler gives a namespace's create the namespace's own name as its namespace.
        namespace: isNamespace && a.namespace === '' ? a.object?.metadata.name ?? '' : a.namespace,
        userName: ctx.user?.name ?? '', object: a.object, oldObject: a.oldObject,
        ...(ctx.deadline === undefined ? {} : { deadline: ctx.deadline }),
      });
      for (const w of decision.warnings) ctx.warnings.addWarning(w);
      for (const [k, v] of Object.entries(decision.auditAnnotations)) ctx.audit?.addAuditAnnotation(AUDIT_ANNOTATION_PREFIX + k, v);
      if (decision.error !== undefined) throw decision.error;
    },
  };
}
