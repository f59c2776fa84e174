import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { StatefulSet } from '../v1/types.ts';
import { defaultStatefulSet, statefulSets } from './statefulset.ts';

const ctx = systemContext('default');

function sts(mutate: (s: StatefulSet) => void = () => {}): StatefulSet {
  const s: StatefulSet = {
    metadata: { name: 'db', namespace: 'default' },
    spec: {
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'pg', image: 'postgres:16' }] } },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    },
  };
  defaultStatefulSet(s);
  mutate(s);
  return s;
}

describe('statefulsets', () => {
  it('defaults as apps/v1 (MaxUnavailableStatefulSet off: no maxUnavailable)', () => {
    const s = sts();
    assert.equal(s.spec.podManagementPolicy, 'OrderedReady');
    assert.deepEqual(s.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    assert.deepEqual(s.spec.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
    assert.equal(s.spec.replicas, 1);
    assert.equal(s.spec.revisionHistoryLimit, 10);
    assert.equal(s.spec.volumeClaimTemplates?.[0]?.spec?.volumeMode, 'Filesystem');
    assert.equal(s.spec.volumeClaimTemplates?.[0]?.status?.phase, 'Pending');
  });

  it('OnDelete gets no rollingUpdate', () => {
    const s: StatefulSet = { metadata: { name: 'x' }, spec: { updateStrategy: { type: 'OnDelete' }, template: { spec: { containers: [] } } } };
    defaultStatefulSet(s);
    assert.deepEqual(s.spec.updateStrategy, { type: 'OnDelete' });
  });

  const cases: { name: string; mutate: (s: StatefulSet) => void; want: string[] }[] = [
    { name: 'valid', mutate: () => {}, want: [] },
    // ValidateStatefulSetSpec validates the pod template like every workload's
    { name: 'pod template runAsUser -1', mutate: (s) => { (s.spec.template.spec.containers[0] ?? { name: '' }).securityContext = { runAsUser: -1 }; },
      want: ['spec.template.spec.containers[0].securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive'] },
    { name: 'a volume claim template is a volume of the pods; hostname is the controller\'s', mutate: (s) => {
      s.spec.template.spec.hostname = 'Not_Checked';
      (s.spec.template.spec.containers[0] ?? { name: '' }).volumeMounts = [{ name: 'data', mountPath: '/data' }];
    }, want: [] },
    { name: 'bad name (DNS label)', mutate: (s) => { s.metadata.name = 'db.x'; },
      want: ['metadata.name: Invalid value: "db.x": must not contain dots'] },
    { name: 'bad podManagementPolicy', mutate: (s) => { s.spec.podManagementPolicy = 'Random'; },
      want: ["spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'"] },
    { name: 'bad updateStrategy', mutate: (s) => { s.spec.updateStrategy = { type: 'Foo' }; },
      want: ["spec.updateStrategy: Invalid value: {\"Type\":\"Foo\",\"RollingUpdate\":null}: must be 'RollingUpdate' or 'OnDelete'"] },
    { name: 'maxUnavailable 0', mutate: (s) => { s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 0 } }; },
      want: ['spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0'] },
    { name: 'bad retention policy', mutate: (s) => { s.spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Keep', whenScaled: 'Delete' }; },
      want: ['spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"'] },
    { name: 'negative ordinals.start', mutate: (s) => { s.spec.ordinals = { start: -1 }; },
      want: ['spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0'] },
    { name: 'selector mismatch', mutate: (s) => { s.spec.selector = { matchLabels: { app: 'x' } }; },
      want: ['spec.template.metadata.labels: Invalid value: {"app":"db"}: `selector` does not match template `labels`'] },
    { name: 'empty selector', mutate: (s) => { s.spec.selector = {}; },
      want: ['spec.selector: Invalid value: {}: empty selector is invalid for statefulset'] },
    { name: 'serviceName not a DNS label', mutate: (s) => { s.spec.serviceName = 'db.x'; },
      want: ['spec.serviceName: Invalid value: "db.x": must not contain dots'] },
    { name: 'volume claim template without storage', mutate: (s) => { s.spec.volumeClaimTemplates![0]!.spec = { accessModes: ['ReadWriteOnce'] }; },
      want: ['spec.volumeClaimTemplates[0].spec.resources[storage]: Required value'] },
    { name: 'restartPolicy OnFailure', mutate: (s) => { s.spec.template.spec.restartPolicy = 'OnFailure'; },
      want: ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'] },
  ];
  for (const c of cases) {
    it(`validate: ${c.name}`, () => assert.deepEqual(statefulSets.strategy.validate(ctx, sts(c.mutate)).map(formatFieldError), c.want));
  }

  const updates: { name: string; mutate: (s: StatefulSet) => void; want: string[] }[] = [
    { name: 'replicas may change', mutate: (s) => { s.spec.replicas = 3; }, want: [] },
    { name: 'template may change', mutate: (s) => { s.spec.template.spec.containers[0]!.image = 'postgres:17'; }, want: [] },
    { name: 'revisionHistoryLimit may change', mutate: (s) => { s.spec.revisionHistoryLimit = 3; }, want: [] },
    { name: 'serviceName may not', mutate: (s) => { s.spec.serviceName = 'other'; },
      want: ["spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', " +
        "'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"] },
  ];
  for (const u of updates) {
    it(`update: ${u.name}`, () => assert.deepEqual(statefulSets.strategy.validateUpdate(ctx, sts(u.mutate), sts()).map(formatFieldError), u.want));
  }

  it('drops rollingUpdate.maxUnavailable unless the stored object has it (MaxUnavailableStatefulSet off)', () => {
    const created = sts((s) => { s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 0 } }; });
    statefulSets.strategy.prepareForCreate(ctx, created);
    assert.deepEqual(created.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    const old = sts((s) => { s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } }; });
    const next = sts((s) => { s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 3 } }; });
    statefulSets.strategy.prepareForUpdate(ctx, next, old);
    assert.equal(next.spec.updateStrategy?.rollingUpdate?.maxUnavailable, 3);
  });

  it('status strategy keeps spec; status validation', () => {
    const old = sts((s) => { s.metadata.generation = 3; s.status = { collisionCount: 2 }; });
    const next = sts((s) => { s.spec.replicas = 9; s.status = { replicas: 1, readyReplicas: 1, availableReplicas: 1, collisionCount: 1 }; });
    statefulSets.statusStrategy.prepareForUpdate(ctx, next, old);
    assert.equal(next.spec.replicas, 1);
    assert.equal(next.metadata.generation, 3);
    assert.deepEqual(statefulSets.statusStrategy.validateUpdate(ctx, next, old).map(formatFieldError),
      ['status.collisionCount: Invalid value: 1: cannot be decremented']);
  });

  it('table and scale', () => {
    const s = sts((x) => { x.spec.replicas = 3; x.status = { replicas: 3, readyReplicas: 2 }; });
    assert.deepEqual(statefulSets.table.map((c) => c.name), ['Name', 'Ready', 'Age', 'Containers', 'Images']);
    assert.deepEqual(statefulSets.table.filter((c) => c.name !== 'Age').map((c) => c.cell(s, 0)), ['db', '2/3', 'pg', 'postgres:16']);
    assert.equal(statefulSets.scale.statusReplicas(s), 3);
    assert.equal(statefulSets.scale.selector(s), 'app=db');
  });
});
