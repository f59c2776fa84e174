// The PodSecurity decision (k8s.io/pod-security-admission/admission): what each kind of request
// gets: refusal, warnings, audit annotations; exemptions; namespace label changes and their pod
// warnings with kube's limits; workloads never refused.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Namespace, PodSpec } from '../../../generated/types/corev1.gen.ts';
import { PodSecurityAdmission, type Decision, type PodSecurityRequest } from './admission.ts';
import { parsePodSecurityConfiguration, type PodSecurityConfiguration } from './config.ts';
import { evaluatePodsInNamespace, type ListedPod } from './namespace-pods.ts';
import { Evaluator } from './policy/registry.ts';

type Obj = Record<string, unknown>;
const P = 'pod-security.kubernetes.io/';
const bare = { containers: [{ name: 'c', image: 'i' }] };
const privileged = { containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }] };
const ns = (name: string, labels: Record<string, string> = {}): Namespace => ({ metadata: { name, labels } });

function admission(namespaces: Namespace[], pods: ListedPod[] = [], config?: PodSecurityConfiguration): PodSecurityAdmission {
  return new PodSecurityAdmission({
    config: config ?? parsePodSecurityConfiguration(undefined), evaluator: new Evaluator(),
    getNamespace: async (n) => namespaces.find((x) => x.metadata?.name === n),
    listPods: async () => pods,
  });
}

const req = (over: Partial<PodSecurityRequest>): PodSecurityRequest => ({
  operation: 'CREATE', group: '', resource: 'pods', subresource: '', kindGroup: '', kind: 'Pod', name: 'p', namespace: 'ns',
  userName: 'alice', object: { metadata: { name: 'p' }, spec: bare }, oldObject: undefined, ...over,
});
const summary = (d: Decision): Obj => ({
  ...(d.error === undefined ? {} : { error: `${d.error.status.code} ${d.error.status.message}` }),
  warnings: d.warnings, annotations: d.auditAnnotations,
});

const config = parsePodSecurityConfiguration({
  apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration',
  defaults: { enforce: 'baseline', warn: 'restricted' },
  exemptions: { usernames: ['bob'], namespaces: ['exempt'], runtimeClasses: ['kata'] },
});

describe('PodSecurity decisions', () => {
  const cases: { name: string; namespaces: Namespace[]; request: Partial<PodSecurityRequest>; config?: PodSecurityConfiguration; want: Obj }[] = [
    {
      name: 'pod: enforce refuses, with the enforce and audit annotations and no warning',
      namespaces: [ns('ns', { [`${P}enforce`]: 'baseline', [`${P}audit`]: 'restricted', [`${P}warn`]: 'restricted' })], request: { object: { spec: privileged } },
      want: {
        error: '403 pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)',
        warnings: [],
        annotations: {
          'enforce-policy': 'baseline:latest',
          'audit-violations': 'would violate PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
        },
      },
    },
    {
      name: 'pod: warn only', namespaces: [ns('ns', { [`${P}warn`]: 'baseline', [`${P}warn-version`]: 'v1.5' })], request: { object: { spec: privileged } },
      want: { warnings: ['would violate PodSecurity "baseline:v1.5": privileged (container "c" must not set securityContext.privileged=true)'], annotations: { 'enforce-policy': 'privileged:latest' } },
    },
    {
      name: 'pod: bad labels enforce restricted (fail closed), audit and warn fail open, with an error annotation',
      namespaces: [ns('ns', { [`${P}enforce`]: 'strict', [`${P}warn`]: 'loud' })], request: { object: { spec: { ...bare, hostPID: true } } },
      want: {
        error: '403 pods "p" is forbidden: violates PodSecurity "restricted:latest": host namespaces (hostPID=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
        warnings: [],
        annotations: {
          error: 'Failed to parse policy: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "loud": must be one of privileged, baseline, restricted]',
          'enforce-policy': 'restricted:latest',
        },
      },
    },
    {
      name: 'pod: a bad warn label alone is not fully privileged: evaluated, nothing found', namespaces: [ns('ns', { [`${P}warn`]: 'loud' })], request: { object: { spec: privileged } },
      want: { warnings: [], annotations: { error: 'Failed to parse policy: metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "loud": must be one of privileged, baseline, restricted', 'enforce-policy': 'privileged:latest' } },
    },
    { name: 'pod: a fully privileged namespace', namespaces: [ns('ns')], request: { object: { spec: privileged } }, want: { warnings: [], annotations: { 'enforce-policy': 'privileged:latest' } } },
    { name: 'pod: an exempt namespace', namespaces: [ns('exempt')], config, request: { namespace: 'exempt', object: { spec: privileged } }, want: { warnings: [], annotations: { exempt: 'namespace' } } },
    { name: 'pod: an exempt user', namespaces: [ns('ns')], config, request: { userName: 'bob', object: { spec: privileged } }, want: { warnings: [], annotations: { exempt: 'user' } } },
    { name: 'pod: an exempt runtime class', namespaces: [ns('ns')], config, request: { object: { spec: { ...privileged, runtimeClassName: 'kata' } } }, want: { warnings: [], annotations: { exempt: 'runtimeClass' } } },
    {
      name: 'pod: the configured defaults apply to an unlabelled namespace', namespaces: [ns('ns')], config, request: { object: { spec: bare } },
      want: { warnings: ['would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")'], annotations: { 'enforce-policy': 'baseline:latest' } },
    },
    { name: 'pod: a missing namespace is an internal error', namespaces: [], request: {}, want: { error: '500 Internal error occurred: failed to lookup namespace "ns"', warnings: [], annotations: { error: 'Internal error occurred: failed to lookup namespace "ns": namespaces "ns" not found' } } },
    { name: 'pod: status is not checked', namespaces: [ns('ns', { [`${P}enforce`]: 'restricted' })], request: { subresource: 'status', object: { spec: privileged } }, want: { warnings: [], annotations: {} } },
    {
      name: 'pod update: a label change is not checked', namespaces: [ns('ns', { [`${P}enforce`]: 'restricted' })],
      request: { operation: 'UPDATE', object: { metadata: { labels: { a: 'b' } }, spec: privileged }, oldObject: { spec: privileged } }, want: { warnings: [], annotations: {} },
    },
    {
      name: 'pod update: an added ephemeral container is checked', namespaces: [ns('ns', { [`${P}enforce`]: 'baseline' })],
      request: { operation: 'UPDATE', subresource: 'ephemeralcontainers', object: { spec: { ...bare, ephemeralContainers: [{ name: 'e', image: 'i', securityContext: { privileged: true } }] } }, oldObject: { spec: bare } },
      want: { error: '403 pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "e" must not set securityContext.privileged=true)', warnings: [], annotations: { 'enforce-policy': 'baseline:latest' } },
    },
    {
      name: 'deployment: warned and audited, never refused', namespaces: [ns('ns', { [`${P}enforce`]: 'baseline', [`${P}audit`]: 'baseline' })],
      request: { group: 'apps', resource: 'deployments', kind: 'Deployment', object: { spec: { template: { spec: privileged } } } },
      want: {
        warnings: ['would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)'],
        annotations: { 'audit-violations': 'would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)' },
      },
    },
    {
      name: 'cronjob: the job template\'s pod template', namespaces: [ns('ns', { [`${P}warn`]: 'baseline' })],
      request: { group: 'batch', resource: 'cronjobs', kind: 'CronJob', object: { spec: { jobTemplate: { spec: { template: { spec: { hostIPC: true, ...bare } } } } } } },
      want: { warnings: ['would violate PodSecurity "baseline:latest": host namespaces (hostIPC=true)'], annotations: {} },
    },
    { name: 'replication controller without a template', namespaces: [ns('ns', { [`${P}warn`]: 'baseline' })], request: { resource: 'replicationcontrollers', kind: 'ReplicationController', object: { spec: {} } }, want: { warnings: [], annotations: {} } },
    {
      name: 'deployment: a missing namespace is only an audit annotation', namespaces: [], request: { group: 'apps', resource: 'deployments', object: { spec: {} } },
      want: { warnings: [], annotations: { error: 'failed to lookup namespace "ns": namespaces "ns" not found' } },
    },
    {
      name: 'namespace create: bad labels are invalid', namespaces: [], request: { resource: 'namespaces', kind: 'Namespace', name: 'n', object: ns('n', { [`${P}enforce`]: 'x' }) },
      want: { error: '422 Namespace "n" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "x": must be one of privileged, baseline, restricted', warnings: [], annotations: {} },
    },
    {
      name: 'namespace update: bad labels that were there already may stay', namespaces: [],
      request: { operation: 'UPDATE', resource: 'namespaces', kind: 'Namespace', name: 'n', object: ns('n', { [`${P}enforce`]: 'x', a: 'b' }), oldObject: ns('n', { [`${P}enforce`]: 'x' }) },
      want: { warnings: [], annotations: {} },
    },
    {
      name: 'namespace create: an exempt namespace labelled is warned', namespaces: [], config,
      request: { resource: 'namespaces', kind: 'Namespace', name: 'exempt', namespace: 'exempt', object: ns('exempt', { [`${P}enforce`]: 'restricted', [`${P}audit-version`]: 'v1.2' }) },
      want: { warnings: ['namespace "exempt" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored'], annotations: {} },
    },
  ];
  for (const c of cases) {
    it(c.name, async () => assert.deepEqual(summary(await admission(c.namespaces, [], c.config).validate(req(c.request))), c.want));
  }
});

describe('existing pods when the enforce level tightens', () => {
  const pod = (name: string, spec: Obj, owner?: string): ListedPod =>
    ({ metadata: { name, ...(owner === undefined ? {} : { ownerReferences: [{ uid: owner, controller: true }] }) }, spec: spec as unknown as PodSpec });
  const restricted = { level: 'restricted', version: { latest: true } } as const;
  const baseline = { level: 'baseline', version: { latest: true } } as const;
  const none = (): boolean => false;

  it('groups pods by their reasons and names the first', () => {
    const pods = [pod('c', privileged), pod('a', privileged), pod('b', privileged), pod('d', { hostPID: true, ...bare }), pod('e', bare)];
    assert.deepEqual(evaluatePodsInNamespace(new Evaluator(), 'n', baseline, pods, none), [
      'existing pods in namespace "n" violate the new PodSecurity enforce level "baseline:latest"',
      'a (and 2 other pods): privileged',
      'd: host namespaces',
    ]);
  });

  it('checks at most the limit, one pod per controller first, and says so', () => {
    const pods = [pod('r1', privileged, 'rs'), pod('r2', privileged, 'rs'), pod('x', privileged, 'other'), pod('y', bare)];
    assert.deepEqual(evaluatePodsInNamespace(new Evaluator(), 'n', restricted, pods, none, undefined, Date.now, 3), [
      'new PodSecurity enforce level only checked against the first 3 of 4 existing pods',
      'existing pods in namespace "n" violate the new PodSecurity enforce level "restricted:latest"',
      'r1 (and 1 other pod): privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      'y: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    ]);
  });

  it('stops at the deadline, after the pod it was checking', () => {
    // The clock reads 600, 1200, 1800: the deadline (600 + 1s) passes after the second pod.
    let t = 0;
    const clock = (): number => (t += 600);
    const pods = [pod('a', privileged), pod('b', privileged), pod('c', privileged)];
    assert.deepEqual(evaluatePodsInNamespace(new Evaluator(), 'n', baseline, pods, none, undefined, clock), [
      'new PodSecurity enforce level only checked against the first 2 of 3 existing pods',
      'existing pods in namespace "n" violate the new PodSecurity enforce level "baseline:latest"',
      'a (and 1 other pod): privileged',
    ]);
  });

  it('leaves out pods of exempt runtime classes', () => {
    const pods = [pod('a', { ...privileged, runtimeClassName: 'kata' })];
    assert.deepEqual(evaluatePodsInNamespace(new Evaluator(), 'n', baseline, pods, (rc) => rc === 'kata'), []);
  });

  it('a namespace update that tightens enforce lists the violations as warnings', async () => {
    const a = admission([], [pod('a', privileged)]);
    const d = await a.validate(req({ operation: 'UPDATE', resource: 'namespaces', kind: 'Namespace', name: 'n', namespace: 'n',
      object: ns('n', { [`${P}enforce`]: 'baseline' }), oldObject: ns('n') }));
    assert.deepEqual(d.warnings, ['existing pods in namespace "n" violate the new PodSecurity enforce level "baseline:latest"', 'a: privileged']);
  });

  it('a pod list that fails is one warning', async () => {
    const a = new PodSecurityAdmission({ config: parsePodSecurityConfiguration(undefined), evaluator: new Evaluator(), getNamespace: async () => undefined,
      listPods: async () => { throw new Error('boom'); } });
    const d = await a.validate(req({ operation: 'UPDATE', resource: 'namespaces', kind: 'Namespace', name: 'n', namespace: 'n',
      object: ns('n', { [`${P}enforce`]: 'baseline' }), oldObject: ns('n') }));
    assert.deepEqual(d.warnings, ['failed to list pods while checking new PodSecurity enforce level']);
  });
});
