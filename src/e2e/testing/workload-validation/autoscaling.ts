// autoscaling (HorizontalPodAutoscaler v2 and v1) and policy/v1 PodDisruptionBudget cases: one per
// rule of pkg/apis/autoscaling/validation (with the options of the v1.36 HPA strategy: HPAScaleToZero
// off) and pkg/apis/policy/validation.
import type { ValidationCase } from '../validation-differential.ts';
import { c, create, HPA_V1, HPA_V2, PDB, update, type Obj } from './helpers.ts';

const spec = (s: Obj): Obj => ({ spec: s });
const status = (s: Obj): readonly ['status', Obj] => ['status', { status: s }];
const ref = (r: Obj): Obj => spec({ scaleTargetRef: r });
const metric = (m: Obj): Obj => spec({ metrics: [m] });
const resource = (target: Obj, name = 'cpu'): Obj => metric({ type: 'Resource', resource: { name, target } });
const ident = { name: 'qps' };
const behavior = (rules: Obj): Obj => spec({ behavior: { scaleUp: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }], ...rules } } });
const policy = (p: Obj): Obj => behavior({ policies: [{ type: 'Pods', value: 1, periodSeconds: 60, ...p }] });

const HPA_V2_CASES: ValidationCase[] = [
  c('hpa v2: valid', create(HPA_V2)),
  c('hpa v2: name invalid', create(HPA_V2, { metadata: { name: 'Bad_Name' } })),
  c('hpa v2: minReplicas 0', create(HPA_V2, spec({ minReplicas: 0 }))),
  c('hpa v2: minReplicas -1', create(HPA_V2, spec({ minReplicas: -1 }))),
  c('hpa v2: minReplicas 0 with an Object metric', create(HPA_V2, { spec: { minReplicas: 0, metrics: [{ type: 'Object', object: {
    describedObject: { kind: 'Service', name: 's', apiVersion: 'v1' }, metric: ident, target: { type: 'Value', value: '1' } } }] } })),
  c('hpa v2: scaleTargetRef ReplicationController in v1 (valid)', create(HPA_V2, ref({ apiVersion: 'v1', kind: 'ReplicationController' }))),
  c('hpa v2: object describedObject apiVersion a/b/c', create(HPA_V2, metric({ type: 'Object', object: { describedObject: { kind: 'Service', name: 's', apiVersion: 'a/b/c' }, metric: ident, target: { type: 'Value', value: '1' } } }))),
  c('hpa v2: scaleDown policies empty', create(HPA_V2, spec({ behavior: { scaleDown: { policies: [] } } }))),
  c('hpa v2: maxReplicas 0', create(HPA_V2, spec({ maxReplicas: 0 }))),
  c('hpa v2: maxReplicas -1', create(HPA_V2, spec({ maxReplicas: -1 }))),
  c('hpa v2: maxReplicas under minReplicas', create(HPA_V2, spec({ minReplicas: 4, maxReplicas: 3 }))),
  c('hpa v2: scaleTargetRef kind missing', create(HPA_V2, ref({ kind: null }))),
  c('hpa v2: scaleTargetRef kind with a slash', create(HPA_V2, ref({ kind: 'a/b' }))),
  c('hpa v2: scaleTargetRef name missing', create(HPA_V2, ref({ name: null }))),
  c('hpa v2: scaleTargetRef name ..', create(HPA_V2, ref({ name: '..' }))),
  c('hpa v2: scaleTargetRef name with %', create(HPA_V2, ref({ name: 'a%b' }))),
  c('hpa v2: scaleTargetRef apiVersion missing', create(HPA_V2, ref({ apiVersion: null }))),
  c('hpa v2: scaleTargetRef apiVersion v1', create(HPA_V2, ref({ apiVersion: 'v1' }))),
  c('hpa v2: scaleTargetRef apiVersion a/b/c', create(HPA_V2, ref({ apiVersion: 'a/b/c' }))),
  c('hpa v2: metric type missing', create(HPA_V2, metric({ resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }))),
  c('hpa v2: metric type Bogus', create(HPA_V2, metric({ type: 'Bogus' }))),
  c('hpa v2: Resource metric without resource', create(HPA_V2, metric({ type: 'Resource' }))),
  c('hpa v2: two metric sources', create(HPA_V2, metric({
    type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
    pods: { metric: ident, target: { type: 'AverageValue', averageValue: '1' } },
  }))),
  c('hpa v2: resource valid', create(HPA_V2, resource({ type: 'Utilization', averageUtilization: 50 }))),
  c('hpa v2: resource name missing', create(HPA_V2, resource({ type: 'Utilization', averageUtilization: 50 }, ''))),
  c('hpa v2: resource without a target', create(HPA_V2, resource({ type: 'Utilization' }))),
  c('hpa v2: resource utilization and averageValue', create(HPA_V2, resource({ type: 'Utilization', averageUtilization: 50, averageValue: '1' }))),
  c('hpa v2: target type Bogus', create(HPA_V2, resource({ type: 'Bogus', averageUtilization: 50 }))),
  c('hpa v2: target type missing', create(HPA_V2, resource({ averageUtilization: 50 }))),
  c('hpa v2: averageUtilization 0', create(HPA_V2, resource({ type: 'Utilization', averageUtilization: 0 }))),
  c('hpa v2: averageValue negative', create(HPA_V2, resource({ type: 'AverageValue', averageValue: '-1' }))),
  c('hpa v2: averageValue -0.5 (shown canonical)', create(HPA_V2, resource({ type: 'AverageValue', averageValue: '-0.5' }))),
  c('hpa v2: object value -1000 (shown canonical)', create(HPA_V2, metric({ type: 'Object', object: { describedObject: { kind: 'Service', name: 's', apiVersion: 'v1' }, metric: ident, target: { type: 'Value', value: '-1000' } } }))),
  c('hpa v2: tolerance -1.5', create(HPA_V2, behavior({ tolerance: '-1.5' }))),
  c('hpa v2: pods without averageValue', create(HPA_V2, metric({ type: 'Pods', pods: { metric: ident, target: { type: 'Value', value: '1' } } }))),
  c('hpa v2: pods metric name missing', create(HPA_V2, metric({ type: 'Pods', pods: { metric: {}, target: { type: 'AverageValue', averageValue: '1' } } }))),
  c('hpa v2: pods metric name with a slash', create(HPA_V2, metric({ type: 'Pods', pods: { metric: { name: 'a/b' }, target: { type: 'AverageValue', averageValue: '1' } } }))),
  c('hpa v2: object without value', create(HPA_V2, metric({ type: 'Object', object: { describedObject: { kind: 'Service', name: 's', apiVersion: 'v1' }, metric: ident, target: { type: 'Value' } } }))),
  c('hpa v2: object describedObject kind missing', create(HPA_V2, metric({ type: 'Object', object: { describedObject: { name: 's', apiVersion: 'v1' }, metric: ident, target: { type: 'Value', value: '1' } } }))),
  c('hpa v2: object value 0', create(HPA_V2, metric({ type: 'Object', object: { describedObject: { kind: 'Service', name: 's', apiVersion: 'v1' }, metric: ident, target: { type: 'Value', value: '0' } } }))),
  c('hpa v2: external value and averageValue', create(HPA_V2, metric({ type: 'External', external: { metric: ident, target: { type: 'Value', value: '1', averageValue: '1' } } }))),
  c('hpa v2: external without target values', create(HPA_V2, metric({ type: 'External', external: { metric: ident, target: { type: 'Value' } } }))),
  c('hpa v2: containerResource container invalid', create(HPA_V2, metric({ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'Bad_Name', target: { type: 'Utilization', averageUtilization: 50 } } }))),
  c('hpa v2: containerResource without container', create(HPA_V2, metric({ type: 'ContainerResource', containerResource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }))),
  c('hpa v2: containerResource name invalid', create(HPA_V2, metric({ type: 'ContainerResource', containerResource: { name: 'bogus', container: 'c', target: { type: 'Utilization', averageUtilization: 50 } } }))),
  c('hpa v2: behavior valid', create(HPA_V2, behavior({ stabilizationWindowSeconds: 60, selectPolicy: 'Max', tolerance: '0.05' }))),
  c('hpa v2: stabilizationWindowSeconds -1', create(HPA_V2, behavior({ stabilizationWindowSeconds: -1 }))),
  c('hpa v2: stabilizationWindowSeconds 3601', create(HPA_V2, behavior({ stabilizationWindowSeconds: 3601 }))),
  c('hpa v2: selectPolicy Bogus', create(HPA_V2, behavior({ selectPolicy: 'Bogus' }))),
  c('hpa v2: policies empty', create(HPA_V2, behavior({ policies: [] }))),
  c('hpa v2: policy type Bogus', create(HPA_V2, policy({ type: 'Bogus' }))),
  c('hpa v2: policy value 0', create(HPA_V2, policy({ value: 0 }))),
  c('hpa v2: policy periodSeconds 0', create(HPA_V2, policy({ periodSeconds: 0 }))),
  c('hpa v2: policy periodSeconds 1801', create(HPA_V2, policy({ periodSeconds: 1801 }))),
  c('hpa v2: tolerance negative', create(HPA_V2, behavior({ tolerance: '-0.1' }))),
  c('hpa v2 update: maxReplicas 0', update(HPA_V2, {}, ['', spec({ maxReplicas: 0 })])),
  c('hpa v2 update: scaleTargetRef apiVersion v1', update(HPA_V2, {}, ['', ref({ apiVersion: 'v1' })])),
  c('hpa v2 status: currentReplicas -1', update(HPA_V2, {}, status({ currentReplicas: -1, desiredReplicas: 0 }))),
  c('hpa v2 status: desiredReplicas -1', update(HPA_V2, {}, status({ currentReplicas: 0, desiredReplicas: -1 }))),
  c('hpa v2 status: valid', update(HPA_V2, {}, status({ currentReplicas: 1, desiredReplicas: 2 }))),
];

const HPA_V1_CASES: ValidationCase[] = [
  c('hpa v1: valid', create(HPA_V1)),
  c('hpa v1: targetCPUUtilizationPercentage 0', create(HPA_V1, spec({ targetCPUUtilizationPercentage: 0 }))),
  c('hpa v1: minReplicas 0', create(HPA_V1, spec({ minReplicas: 0 }))),
  c('hpa v1: maxReplicas 0', create(HPA_V1, spec({ maxReplicas: 0 }))),
  c('hpa v1: scaleTargetRef apiVersion missing', create(HPA_V1, ref({ apiVersion: null }))),
  c('hpa v1: scaleTargetRef kind missing', create(HPA_V1, ref({ kind: null }))),
  c('hpa v1 status: currentReplicas -1', update(HPA_V1, {}, status({ currentReplicas: -1, desiredReplicas: 0 }))),
];

const PDB_CASES: ValidationCase[] = [
  c('pdb: valid', create(PDB)),
  c('pdb: name invalid', create(PDB, { metadata: { name: 'Bad_Name' } })),
  c('pdb: minAvailable and maxUnavailable', create(PDB, spec({ maxUnavailable: 1 }))),
  c('pdb: minAvailable -1', create(PDB, spec({ minAvailable: -1 }))),
  c('pdb: minAvailable 150%', create(PDB, spec({ minAvailable: '150%' }))),
  c('pdb: maxUnavailable not a percent', create(PDB, spec({ minAvailable: null, maxUnavailable: 'abc' }))),
  c('pdb: selector key invalid', create(PDB, spec({ selector: { matchLabels: { 'bad key': 'a' } } }))),
  c('pdb: selector value invalid', create(PDB, spec({ selector: { matchLabels: { app: 'bad value' } } }))),
  c('pdb: selector operator Bogus', create(PDB, spec({ selector: { matchExpressions: [{ key: 'app', operator: 'Bogus' }] } }))),
  c('pdb: no selector (valid)', create(PDB, spec({ selector: null }))),
  c('pdb: unhealthyPodEvictionPolicy Bogus', create(PDB, spec({ unhealthyPodEvictionPolicy: 'Bogus' }))),
  c('pdb update: minAvailable changed (allowed)', update(PDB, {}, ['', spec({ minAvailable: 2 })])),
  c('pdb update: selector changed (allowed)', update(PDB, {}, ['', spec({ selector: { matchLabels: { app: 'b' } } })])),
  c('pdb update: maxUnavailable 150%', update(PDB, {}, ['', spec({ minAvailable: null, maxUnavailable: '150%' })])),
  ...['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']
    .map((f) => c(`pdb status: ${f} -1`, update(PDB, {}, status({ [f]: -1 })))),
  c('pdb status: condition invalid', update(PDB, {}, status({ conditions: [{ type: 'bad type', status: 'Bogus', reason: 'bad reason', message: 'm', lastTransitionTime: '2026-01-01T00:00:00Z' }] }))),
  c('pdb status: condition without lastTransitionTime', update(PDB, {}, status({ conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: 'm' }] }))),
  c('pdb status: conditions duplicate', update(PDB, {}, status({ conditions: [
    { type: 'Ready', status: 'True', reason: 'Ok', message: 'm', lastTransitionTime: '2026-01-01T00:00:00Z' },
    { type: 'Ready', status: 'False', reason: 'Ok', message: 'm', lastTransitionTime: '2026-01-01T00:00:00Z' },
  ] }))),
];

export const AUTOSCALING_POLICY_CASES: readonly ValidationCase[] = [...HPA_V2_CASES, ...HPA_V1_CASES, ...PDB_CASES];
