import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { Pod, PodSpec } from '../v1/types.ts';
import { pods } from './pod.ts';
import { podTemplateWarnings, podWarnings } from './warnings.ts';

const ctx = systemContext('default');
const pod = (spec: Partial<PodSpec>, annotations?: Record<string, string>, name = 'web'): Pod => ({
  metadata: { name, namespace: 'default', ...(annotations !== undefined ? { annotations } : {}) },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});

describe('pod warnings (pkg/api/pod/warnings.go)', () => {
  const cases: { name: string; pod: Pod; want: string[] }[] = [
    { name: 'none for a plain pod', pod: pod({}), want: [] },
    { name: 'deprecated node label in nodeSelector', pod: pod({ nodeSelector: { 'beta.kubernetes.io/os': 'linux' } }),
      want: ['spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead'] },
    { name: 'deprecated node labels in node affinity', pod: pod({ affinity: { nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', operator: 'Exists' }] }] },
      preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: 'beta.kubernetes.io/arch', operator: 'Exists' }] } }],
    } } }), want: [
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].key: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead',
    ] },
    { name: 'topology spread: deprecated key, null selector', pod: pod({ topologySpreadConstraints: [{ topologyKey: 'failure-domain.beta.kubernetes.io/region', maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule' }] }),
      want: ['spec.topologySpreadConstraints[0].topologyKey: failure-domain.beta.kubernetes.io/region is deprecated since v1.17; use "topology.kubernetes.io/region" instead',
        'spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod'] },
    { name: 'deprecated annotations', pod: pod({}, { 'scheduler.alpha.kubernetes.io/critical-pod': '', 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default',
      'container.seccomp.security.alpha.kubernetes.io/app': 'runtime/default' }), want: [
      'metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
      'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
      'metadata.annotations[container.seccomp.security.alpha.kubernetes.io/app]: non-functional in v1.27+; use the "seccompProfile" field instead',
    ] },
    { name: 'deprecated volume plugins', pod: pod({ volumes: [{ name: 'g', gitRepo: { repository: 'x' } }, { name: 's', storageos: {} }] }),
      want: ['spec.volumes[0].gitRepo: deprecated in v1.11', 'spec.volumes[1].storageOS: deprecated in v1.22, non-functional in v1.25+'] },
    { name: 'overlapping paths in a volume', pod: pod({ volumes: [{ name: 'cfg', configMap: { name: 'c', items: [{ key: 'a', path: 'p' }, { key: 'b', path: 'p/q' }] } }] }),
      want: ['volume "cfg" (ConfigMap "c"): overlapping paths: "p/q" with "p"'] },
    { name: 'duplicate host aliases and pull secrets, empty secret name', pod: pod({ hostAliases: [{ ip: '1.2.3.4' }, { ip: '1.2.3.4' }],
      imagePullSecrets: [{ name: 'r' }, { name: 'r' }, { name: '' }] }), want: [
      'spec.hostAliases[1].ip: duplicate ip "1.2.3.4"', 'spec.imagePullSecrets[1].name: duplicate name "r"', 'spec.imagePullSecrets[2].name: invalid empty name ""',
    ] },
    { name: 'fractional bytes', pod: pod({ containers: [{ name: 'app', image: 'i', resources: { limits: { memory: '1.5' }, requests: { 'ephemeral-storage': '100m' } } }] }),
      want: ['spec.containers[0].resources.limits[memory]: fractional byte value "1500m" is invalid, must be an integer',
        'spec.containers[0].resources.requests[ephemeral-storage]: fractional byte value "100m" is invalid, must be an integer'] },
    { name: 'env hiding a previous definition', pod: pod({ containers: [{ name: 'app', image: 'i', env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }, { name: 'A', value: '$(A)x' }] }] }),
      want: ['spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply'] },
    { name: 'ports: hostIP without hostPort, duplicates across containers', pod: pod({ containers: [
      { name: 'a', image: 'i', ports: [{ containerPort: 80, protocol: 'TCP', hostIP: '10.0.0.1' }] },
      { name: 'b', image: 'i', ports: [{ containerPort: 80, protocol: 'TCP', hostIP: '10.0.0.1' }] }] }), want: [
      'spec.containers[0].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:TCP HostIP:10.0.0.1}',
      'spec.containers[1].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:TCP HostIP:10.0.0.1}',
      'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]',
    ] },
    { name: 'negative grace period', pod: pod({ terminationGracePeriodSeconds: -1 }),
      want: ['spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1'] },
    { name: 'pod affinity terms without a selector', pod: pod({ affinity: { podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'k' }], preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'k' } }] } } }),
      want: ['spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector: a null labelSelector results in matching no pod',
        'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(podWarnings(c.pod), c.want));

  it('pod create adds the hostname warning; updates warn nothing', () => {
    assert.deepEqual(pods.strategy.warningsOnCreate?.(ctx, pod({ terminationGracePeriodSeconds: -5 }, undefined, 'web.v1')), [
      "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
      'spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
    ]);
    assert.equal(pods.strategy.warningsOnUpdate, undefined);
  });

  it('templates: paths under the template, AppArmor annotations warned', () => {
    const t = { metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'runtime/default' } },
      spec: { containers: [{ name: 'app', image: 'i' }], nodeSelector: { 'beta.kubernetes.io/instance-type': 'm5' } } };
    assert.deepEqual(podTemplateWarnings(fieldPath('spec', 'template'), t), [
      'spec.template.spec.nodeSelector[beta.kubernetes.io/instance-type]: deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
      'spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead',
    ]);
  });
});
