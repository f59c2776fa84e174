import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../v1/types.ts';
import { defaultPod } from './defaults.ts';
import { podCaseCauses, type PodRuleCase } from './testing.ts';

describe('pod-level resources defaulting (SetDefaults_Pod with PodLevelResources on)', () => {
  const defaulted = (spec: Partial<Pod['spec']>): Pod['spec']['resources'] => {
    const pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } as Pod;
    defaultPod(pod);
    return pod.spec.resources;
  };
  it('requests default to the limits when no container asks', () =>
    assert.deepEqual(defaulted({ resources: { limits: { cpu: '1', memory: '1Gi' } } }), { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } }));
  it('requests default to the containers\' aggregate when they ask', () =>
    assert.deepEqual(defaulted({ resources: { limits: { cpu: '1' } }, containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '200m' } } },
      { name: 'd', image: 'i', resources: { requests: { cpu: '300m' } } }] }), { limits: { cpu: '1' }, requests: { cpu: '500m' } }));
  it('nothing is defaulted without pod-level limits', () => assert.deepEqual(defaulted({ resources: { requests: { cpu: '1' } } }), { requests: { cpu: '1' } }));
});

describe('pod-level resources validation (validatePodResourceConsistency), as kube-apiserver v1.36 answers', () => {
  const cases: PodRuleCase[] = [
    { name: 'containers ask more than the pod', spec: { resources: { requests: { memory: '100Mi' } },
      containers: [{ name: 'c', image: 'i', resources: { requests: { memory: '60Mi' } } }, { name: 'd', image: 'i', resources: { requests: { memory: '60Mi' } } }] },
    want: ['spec.resources.requests[memory]|FieldValueInvalid|Invalid value: "100Mi": must be greater than or equal to aggregate container requests of 120Mi'] },
    { name: 'a container limit above the pod limit', spec: { resources: { limits: { cpu: '1' } }, containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1500m' } } }] },
      want: ['spec.resources.containers[0][cpu].limits|FieldValueInvalid|Invalid value: "1500m": must be less than or equal to pod limits of 1',
        'spec.resources.requests|FieldValueInvalid|Invalid value: "1500m": must be less than or equal to cpu limit of 1'] },
    { name: 'request above limit, canonical quantities', spec: { resources: { requests: { memory: '2Gi' }, limits: { memory: '1024Mi' } } },
      want: ['spec.resources.requests|FieldValueInvalid|Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi'] },
    { name: 'container request above limit, canonical', container: { resources: { requests: { cpu: '0.5' }, limits: { cpu: '100m' } } },
      want: ['spec.containers[0].resources.requests|FieldValueInvalid|Invalid value: "500m": must be less than or equal to cpu limit of 100m'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(podCaseCauses(c), [...c.want].sort()));
});
