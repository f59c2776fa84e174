// apps/v1 cases: one per rule of pkg/apis/apps/validation (ValidateDeployment*, ValidateReplicaSet*,
// ValidateStatefulSet*, ValidateDaemonSet*, ValidateControllerRevision*) and the scale subresource.
import type { ValidationCase } from '../validation-differential.ts';
import {
  c, CONTROLLERREVISION, create, DAEMONSET, DEPLOYMENT, putScale, REPLICASET, STATEFULSET, update, type Obj, type Res,
} from './helpers.ts';

const spec = (s: Obj): Obj => ({ spec: s });
const tspec = (s: Obj): Obj => ({ spec: { template: { spec: s } } });
const status = (s: Obj): readonly ['status', Obj] => ['status', { status: s }];

/** The selector and template rules every replicated workload shares. */
function selectorCases(kind: string, r: Res): ValidationCase[] {
  return [
    c(`${kind}: valid`, create(r)),
    c(`${kind}: name invalid`, create(r, { metadata: { name: 'Bad_Name' } })),
    c(`${kind}: selector missing`, create(r, spec({ selector: null }))),
    c(`${kind}: selector empty`, create(r, spec({ selector: {} }))),
    c(`${kind}: selector key invalid`, create(r, spec({ selector: { matchLabels: { 'bad key': 'a' } } }))),
    c(`${kind}: selector operator Bogus`, create(r, spec({ selector: { matchExpressions: [{ key: 'app', operator: 'Bogus', values: ['a'] }] } }))),
    c(`${kind}: selector In without values`, create(r, spec({ selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }))),
    c(`${kind}: selector not matching the template`, create(r, spec({ selector: { matchLabels: { app: 'b' } } }))),
    c(`${kind}: template restartPolicy Never`, create(r, tspec({ restartPolicy: 'Never' }))),
    c(`${kind}: template activeDeadlineSeconds`, create(r, tspec({ activeDeadlineSeconds: 10 }))),
    c(`${kind}: template container name invalid`, create(r, tspec({ containers: [{ name: 'Bad_Name', image: 'busybox' }] }))),
    c(`${kind}: template label value invalid`, create(r, { spec: { template: { metadata: { labels: { app: 'a', x: 'bad value' } } } } })),
    c(`${kind}: template annotation key invalid`, create(r, { spec: { template: { metadata: { annotations: { 'bad key': 'v' } } } } })),
    c(`${kind}: template volume mount of no volume`, create(r, tspec({ containers: [{ name: 'c', image: 'busybox', volumeMounts: [{ name: 'v', mountPath: '/v' }] }] }))),
    c(`${kind}: template without containers`, create(r, tspec({ containers: [] }))),
    c(`${kind}: minReadySeconds -1`, create(r, spec({ minReadySeconds: -1 }))),
    c(`${kind} update: selector changed`, update(r, {}, ['', spec({ selector: { matchLabels: { app: 'b' } }, template: { metadata: { labels: { app: 'b' } } } })])),
    c(`${kind} update: template restartPolicy OnFailure`, update(r, {}, ['', tspec({ restartPolicy: 'OnFailure' })])),
    c(`${kind} update: template image changed`, update(r, {}, ['', tspec({ containers: [{ name: 'c', image: 'nginx' }] })])),
    c(`${kind}: name with a dot (warning)`, create(r, { metadata: { name: 'a.b' } })),
    c(`${kind}: template deprecated node label (warning)`, create(r, tspec({ nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' } }))),
    c(`${kind} update: template deprecated node label (warning)`, update(r, {}, ['', tspec({ nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' } })])),
  ];
}

/** spec.replicas, the replica counters of the status and the scale subresource. */
function replicaCases(kind: string, r: Res, counters: readonly string[]): ValidationCase[] {
  return [
    c(`${kind}: replicas -1`, create(r, spec({ replicas: -1 }))),
    c(`${kind} update: replicas -1`, update(r, {}, ['', spec({ replicas: -1 })])),
    c(`${kind} status: valid`, update(r, {}, status({ replicas: 2, readyReplicas: 1, availableReplicas: 1 }))),
    ...counters.map((f) => c(`${kind} status: ${f} -1`, update(r, {}, status({ [f]: -1 })))),
    c(`${kind} status: readyReplicas over replicas`, update(r, {}, status({ replicas: 1, readyReplicas: 2 }))),
    c(`${kind} status: availableReplicas over replicas and readyReplicas`, update(r, {}, status({ replicas: 1, readyReplicas: 1, availableReplicas: 2 }))),
    c(`${kind} status: availableReplicas over readyReplicas`, update(r, {}, status({ replicas: 3, readyReplicas: 1, availableReplicas: 2 }))),
    c(`${kind} scale: replicas 3`, putScale(r, { replicas: 3 })),
    c(`${kind} scale: replicas -1`, putScale(r, { replicas: -1 })),
    c(`${kind} scale: merge patch replicas -1`, update(r, {}, ['scale', spec({ replicas: -1 })])),
    c(`${kind} scale: another name`, putScale(r, { replicas: 2 }, { name: 'other' })),
  ];
}

const collisionCases = (kind: string, r: Res): ValidationCase[] => [
  c(`${kind} status: collisionCount -1`, update(r, {}, status({ collisionCount: -1 }))),
  c(`${kind} status: collisionCount decremented`, update(r, {}, status({ collisionCount: 2 }), status({ collisionCount: 1 }))),
  c(`${kind} status: collisionCount removed`, update(r, {}, status({ collisionCount: 2 }), status({ collisionCount: null }))),
  c(`${kind} status: observedGeneration -1`, update(r, {}, status({ observedGeneration: -1 }))),
];

const ru = (s: Obj): Obj => spec({ strategy: { type: 'RollingUpdate', rollingUpdate: s } });

const DEPLOYMENT_CASES: ValidationCase[] = [
  ...selectorCases('deployment', DEPLOYMENT),
  ...replicaCases('deployment', DEPLOYMENT, ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'terminatingReplicas']),
  ...collisionCases('deployment', DEPLOYMENT),
  c('deployment status: updatedReplicas over replicas', update(DEPLOYMENT, {}, status({ replicas: 1, updatedReplicas: 2 }))),
  c('deployment: strategy type Bogus', create(DEPLOYMENT, spec({ strategy: { type: 'Bogus' } }))),
  c('deployment: Recreate with rollingUpdate', create(DEPLOYMENT, spec({ strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } }))),
  c('deployment: maxUnavailable and maxSurge 0', create(DEPLOYMENT, ru({ maxUnavailable: 0, maxSurge: 0 }))),
  c('deployment: maxUnavailable 0% and maxSurge 0', create(DEPLOYMENT, ru({ maxUnavailable: '0%', maxSurge: 0 }))),
  c('deployment: maxUnavailable 150%', create(DEPLOYMENT, ru({ maxUnavailable: '150%' }))),
  c('deployment: maxSurge 150% (allowed)', create(DEPLOYMENT, ru({ maxSurge: '150%' }))),
  c('deployment: maxSurge not a percent', create(DEPLOYMENT, ru({ maxSurge: 'abc' }))),
  c('deployment: maxUnavailable -1', create(DEPLOYMENT, ru({ maxUnavailable: -1 }))),
  c('deployment: maxUnavailable -5%', create(DEPLOYMENT, ru({ maxUnavailable: '-5%' }))),
  c('deployment: revisionHistoryLimit -1', create(DEPLOYMENT, spec({ revisionHistoryLimit: -1 }))),
  c('deployment: progressDeadlineSeconds equal to minReadySeconds', create(DEPLOYMENT, spec({ progressDeadlineSeconds: 10, minReadySeconds: 10 }))),
  c('deployment: progressDeadlineSeconds -1', create(DEPLOYMENT, spec({ progressDeadlineSeconds: -1 }))),
  c('deployment update: maxUnavailable 150%', update(DEPLOYMENT, {}, ['', ru({ maxUnavailable: '150%' })])),
];

const REPLICASET_CASES: ValidationCase[] = [
  ...selectorCases('replicaset', REPLICASET),
  ...replicaCases('replicaset', REPLICASET, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration', 'terminatingReplicas']),
  c('replicaset status: fullyLabeledReplicas over replicas', update(REPLICASET, {}, status({ replicas: 1, fullyLabeledReplicas: 2 }))),
];

const sru = (s: Obj): Obj => spec({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: s } });
const claim = (name: string, s: Obj): Obj => ({ metadata: { name }, spec: s });
const GOOD_CLAIM = claim('data', { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } });

const STATEFULSET_CASES: ValidationCase[] = [
  ...selectorCases('statefulset', STATEFULSET),
  ...replicaCases('statefulset', STATEFULSET, ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas']),
  ...collisionCases('statefulset', STATEFULSET),
  c('statefulset status: currentReplicas and updatedReplicas over replicas', update(STATEFULSET, {}, status({ replicas: 1, currentReplicas: 2, updatedReplicas: 3 }))),
  c('statefulset: no serviceName', create(STATEFULSET, spec({ serviceName: null }))),
  c('statefulset: serviceName invalid', create(STATEFULSET, spec({ serviceName: 'Bad_Name' }))),
  c('statefulset: podManagementPolicy Bogus', create(STATEFULSET, spec({ podManagementPolicy: 'Bogus' }))),
  c('statefulset: updateStrategy type Bogus', create(STATEFULSET, spec({ updateStrategy: { type: 'Bogus' } }))),
  c('statefulset: OnDelete with rollingUpdate', create(STATEFULSET, spec({ updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } }))),
  c('statefulset: partition -1', create(STATEFULSET, sru({ partition: -1 }))),
  c('statefulset: maxUnavailable 0', create(STATEFULSET, sru({ maxUnavailable: 0 }))),
  c('statefulset: maxUnavailable 120%', create(STATEFULSET, sru({ maxUnavailable: '120%' }))),
  c('statefulset: maxUnavailable not a percent', create(STATEFULSET, sru({ maxUnavailable: 'x' }))),
  c('statefulset: retention whenDeleted Bogus', create(STATEFULSET, spec({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Bogus', whenScaled: 'Retain' } }))),
  c('statefulset: ordinals.start -1', create(STATEFULSET, spec({ ordinals: { start: -1 } }))),
  c('statefulset: revisionHistoryLimit -1', create(STATEFULSET, spec({ revisionHistoryLimit: -1 }))),
  c('statefulset: template hostname and subdomain (ignored)', create(STATEFULSET, tspec({ hostname: 'Bad_Name', subdomain: 'Bad_Name' }))),
  c('statefulset: volume claim template mounted', create(STATEFULSET, {
    spec: { volumeClaimTemplates: [GOOD_CLAIM], template: { spec: { containers: [{ name: 'c', image: 'busybox', volumeMounts: [{ name: 'data', mountPath: '/d' }] }] } } },
  })),
  c('statefulset: volume claim template without accessModes', create(STATEFULSET, spec({ volumeClaimTemplates: [claim('data', { resources: { requests: { storage: '1Gi' } } })] }))),
  c('statefulset: volume claim template without storage', create(STATEFULSET, spec({ volumeClaimTemplates: [claim('data', { accessModes: ['ReadWriteOnce'] })] }))),
  c('statefulset update: serviceName changed', update(STATEFULSET, {}, ['', spec({ serviceName: 'other' })])),
  c('statefulset update: podManagementPolicy changed', update(STATEFULSET, {}, ['', spec({ podManagementPolicy: 'Parallel' })])),
  c('statefulset update: volumeClaimTemplates changed', update(STATEFULSET, {}, ['', spec({ volumeClaimTemplates: [GOOD_CLAIM] })])),
  c('statefulset update: revisionHistoryLimit changed', update(STATEFULSET, {}, ['', spec({ revisionHistoryLimit: 3 })])),
  c('statefulset update: revisionHistoryLimit -1 (warning)', update(STATEFULSET, {}, ['', spec({ revisionHistoryLimit: -1 })])),
  c('statefulset: volume claim template with a storage class annotation (warning)', create(STATEFULSET, spec({
    volumeClaimTemplates: [{ ...GOOD_CLAIM, metadata: { name: 'data', annotations: { 'volume.beta.kubernetes.io/storage-class': 'x' } } }],
  }))),
  c('statefulset update: minReadySeconds, ordinals, retention changed', update(STATEFULSET, {}, ['', spec({
    minReadySeconds: 5, ordinals: { start: 2 }, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' },
  })])),
  c('statefulset update: updateStrategy OnDelete', update(STATEFULSET, {}, ['', spec({ updateStrategy: { type: 'OnDelete', rollingUpdate: null } })])),
];

const dsru = (s: Obj): Obj => spec({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: s } });

const DAEMONSET_CASES: ValidationCase[] = [
  ...selectorCases('daemonset', DAEMONSET),
  ...collisionCases('daemonset', DAEMONSET),
  ...['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable']
    .map((f) => c(`daemonset status: ${f} -1`, update(DAEMONSET, {}, status({ [f]: -1 })))),
  c('daemonset status: numberReady over desired (allowed)', update(DAEMONSET, {}, status({ desiredNumberScheduled: 1, numberReady: 3 }))),
  c('daemonset: updateStrategy type Bogus', create(DAEMONSET, spec({ updateStrategy: { type: 'Bogus' } }))),
  c('daemonset: maxUnavailable and maxSurge 0', create(DAEMONSET, dsru({ maxUnavailable: 0, maxSurge: 0 }))),
  c('daemonset: maxUnavailable and maxSurge set', create(DAEMONSET, dsru({ maxUnavailable: 1, maxSurge: 1 }))),
  c('daemonset: maxSurge 200%', create(DAEMONSET, dsru({ maxUnavailable: 0, maxSurge: '200%' }))),
  c('daemonset: maxUnavailable -1', create(DAEMONSET, dsru({ maxUnavailable: -1 }))),
  c('daemonset: maxUnavailable not a percent', create(DAEMONSET, dsru({ maxUnavailable: 'abc' }))),
  c('daemonset: revisionHistoryLimit -1', create(DAEMONSET, spec({ revisionHistoryLimit: -1 }))),
  c('daemonset: OnDelete (valid)', create(DAEMONSET, spec({ updateStrategy: { type: 'OnDelete' } }))),
  c('daemonset update: template generation annotation lowered', update(DAEMONSET, {},
    ['', { metadata: { annotations: { 'deprecated.daemonset.template.generation': '0' } } }])),
  c('daemonset update: template generation annotation raised', update(DAEMONSET, {},
    ['', { metadata: { annotations: { 'deprecated.daemonset.template.generation': '5' } } }])),
  c('daemonset: template generation annotation -1', create(DAEMONSET, { metadata: { annotations: { 'deprecated.daemonset.template.generation': '-1' } } })),
];

const CONTROLLERREVISION_CASES: ValidationCase[] = [
  c('controllerrevision: valid', create(CONTROLLERREVISION)),
  c('controllerrevision: name invalid', create(CONTROLLERREVISION, { metadata: { name: 'Bad_Name' } })),
  c('controllerrevision: no data', create(CONTROLLERREVISION, { data: null })),
  c('controllerrevision: data a string', create(CONTROLLERREVISION, { data: 'x' })),
  c('controllerrevision: data a list', create(CONTROLLERREVISION, { data: [1] })),
  c('controllerrevision: data a number', create(CONTROLLERREVISION, { data: 3 })),
  c('controllerrevision: revision -1', create(CONTROLLERREVISION, { revision: -1 })),
  c('controllerrevision update: data changed', update(CONTROLLERREVISION, {}, ['', { data: { a: 2 } }])),
  c('controllerrevision update: revision -1', update(CONTROLLERREVISION, {}, ['', { revision: -1 }])),
  c('controllerrevision update: revision changed (allowed)', update(CONTROLLERREVISION, {}, ['', { revision: 5 }])),
];

export const APPS_CASES: readonly ValidationCase[] = [
  ...DEPLOYMENT_CASES, ...REPLICASET_CASES, ...STATEFULSET_CASES, ...DAEMONSET_CASES, ...CONTROLLERREVISION_CASES,
];
