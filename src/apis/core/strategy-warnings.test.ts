// The warnings each strategy returns on create and update (WarningsOnCreate / WarningsOnUpdate of
// pkg/registry/...), which the Store sends as `Warning: 299 - "..."` headers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { DeepReadonly, Strategy } from '../../registry/rest/strategy.ts';
import { deployments } from '../apps/deployment/deployment.ts';
import { statefulSets } from '../apps/statefulset/statefulset.ts';
import { cronJobStrategy, cronJobStatusStrategy } from '../batch/cronjob/cronjob.ts';
import { jobStrategy } from '../batch/job/job.ts';
import { ingressStrategy } from '../networking/ingress/ingress.ts';
import { runtimeClasses } from '../node/runtimeclass/runtimeclass.ts';
import { persistentVolumeStrategy } from './persistentvolume/persistentvolume.ts';
import { persistentVolumeClaimStrategy } from './persistentvolumeclaim/persistentvolumeclaim.ts';
import { podTemplates } from './podtemplate/podtemplate.ts';
import { serviceStrategy } from './service/service.ts';

const ctx = systemContext('default');
const onCreate = <T extends KubeObject>(s: Strategy<T>, obj: T): string[] => s.warningsOnCreate?.(ctx, obj as DeepReadonly<T>) ?? [];
const onUpdate = <T extends KubeObject>(s: Strategy<T>, obj: T, old: T): string[] => {
  const o = structuredClone(obj);
  s.prepareForUpdate(ctx, o, old as DeepReadonly<T>);
  return s.warningsOnUpdate?.(ctx, o as DeepReadonly<T>, old as DeepReadonly<T>) ?? [];
};
const NODE_SELECTOR = { 'beta.kubernetes.io/os': 'linux' };
const template = (nodeSelector: Record<string, string> = {}) =>
  ({ metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }], nodeSelector } });
const NAME_WARNING = 'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]';

describe('strategy warnings', () => {
  it('Deployment: the name and the template on create; the template again when the generation moves', () => {
    const d = { metadata: { name: 'web.v1', namespace: 'default', generation: 1 }, spec: { selector: { matchLabels: { app: 'a' } }, template: template(NODE_SELECTOR) } };
    assert.deepEqual(onCreate(deployments.strategy, d), [NAME_WARNING,
      'spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead']);
    assert.deepEqual(onUpdate(deployments.strategy, d, d), [], 'no spec change, no warning');
    assert.equal(onUpdate(deployments.strategy, { ...d, spec: { ...d.spec, replicas: 3 } }, d).length, 1);
    assert.deepEqual(onUpdate(deployments.statusStrategy, { ...d, spec: { ...d.spec, replicas: 3 } }, d), [], 'status updates warn nothing');
  });

  it('StatefulSet: claim templates (with kube\'s update path) and a negative history limit', () => {
    const s = { metadata: { name: 'db', namespace: 'default', generation: 1 }, spec: { selector: { matchLabels: { app: 'a' } }, template: template(),
      revisionHistoryLimit: -1, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1.5' } } } }] } };
    assert.deepEqual(onCreate(statefulSets.strategy, s), [
      'spec.volumeClaimTemplates[0].resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
      'spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended',
    ]);
    assert.deepEqual(onUpdate(statefulSets.strategy, s, s), [
      'spec.volumeClaimTemplates[0].Spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
      'spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended',
    ]);
  });

  it('Job and CronJob: job spec under its path; a kept TZ schedule warns on update only (with kube\'s spec.spec path)', () => {
    const job = { metadata: { name: 'j', namespace: 'default' }, spec: { template: template(NODE_SELECTOR) } };
    assert.deepEqual(onCreate(jobStrategy, job as never), ['spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead']);
    const cj = { metadata: { name: 'c', namespace: 'default', generation: 1 }, spec: { schedule: 'TZ=UTC 0 * * * *', jobTemplate: { spec: { template: template() } } } };
    assert.deepEqual(onUpdate(cronJobStrategy, cj as never, cj as never),
      ['cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details']);
    assert.deepEqual(onUpdate(cronJobStatusStrategy, cj as never, cj as never), []);
  });

  it('PodTemplate: the template path is `template`', () => {
    const pt = { metadata: { name: 't', namespace: 'default' }, template: { spec: { containers: [{ name: 'c', image: 'i' }], terminationGracePeriodSeconds: -1 } } };
    assert.deepEqual(onCreate(podTemplates.strategy, pt),
      ['template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1']);
  });

  it('Ingress: the deprecated class annotation, on create only and not next to spec.ingressClassName', () => {
    const ing = { metadata: { name: 'i', namespace: 'default', annotations: { 'kubernetes.io/ingress.class': 'nginx' } }, spec: {} };
    assert.deepEqual(onCreate(ingressStrategy, ing), ['annotation "kubernetes.io/ingress.class" is deprecated, please use \'spec.ingressClassName\' instead']);
    assert.deepEqual(onCreate(ingressStrategy, { ...ing, spec: { ingressClassName: 'nginx' } }), []);
    assert.equal(ingressStrategy.warningsOnUpdate, undefined);
  });

  it('Service: headless leftovers, externalName, PreferClose, the topology annotation, non-standard IPs', () => {
    const svc = { metadata: { name: 's', namespace: 'default', annotations: { 'service.kubernetes.io/topology-aware-hints': 'auto' } },
      spec: { type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'], loadBalancerIP: '1.2.3.4', sessionAffinity: 'ClientIP', externalName: 'x.example.com',
        trafficDistribution: 'PreferClose', loadBalancerSourceRanges: ['10.0.0.1/8'] } };
    assert.deepEqual(onCreate(serviceStrategy, svc), [
      'annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead',
      'spec.loadBalancerIP is ignored for headless services',
      'spec.SessionAffinity is ignored for headless services',
      'spec.loadBalancerSourceRanges[0]: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)',
      'spec.externalName is ignored when spec.type is not "ExternalName"',
      'spec.trafficDistribution: "PreferClose" is deprecated; use "PreferSameZone"',
    ]);
  });

  it('PersistentVolumeClaim and PersistentVolume: fractional storage, the beta class annotation, Recycle', () => {
    const pvc = { metadata: { name: 'c', namespace: 'default', annotations: { 'volume.beta.kubernetes.io/storage-class': 'fast' } },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0.5' } } } };
    assert.deepEqual(onCreate(persistentVolumeClaimStrategy, pvc), [
      'metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead',
      'spec.resources.requests[storage]: fractional byte value "500m" is invalid, must be an integer',
    ]);
    const pv = { metadata: { name: 'v' }, spec: { persistentVolumeReclaimPolicy: 'Recycle', glusterfs: { endpoints: 'e', path: 'p' } } };
    assert.deepEqual(onCreate(persistentVolumeStrategy, pv), [
      'spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.',
      'spec.glusterfs: deprecated in v1.25, non-functional in v1.26+',
    ]);
  });

  it('RuntimeClass: deprecated labels in scheduling.nodeSelector', () => {
    const rc = { metadata: { name: 'r' }, handler: 'runc', scheduling: { nodeSelector: NODE_SELECTOR } };
    assert.deepEqual(onCreate(runtimeClasses.strategy, rc), ['scheduling.nodeSelector: deprecated since v1.14; use "kubernetes.io/os" instead']);
  });
});
