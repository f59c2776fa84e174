import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { policyGroup } from './install.ts';
import { podDisruptionBudgets } from './poddisruptionbudget/poddisruptionbudget.ts';
import type { PodDisruptionBudget } from './v1/types.ts';

const ctx = systemContext('default');

function pdb(mut: (p: PodDisruptionBudget) => void = () => {}): PodDisruptionBudget {
  const p: PodDisruptionBudget = { metadata: { name: 'web', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web' } } } };
  mut(p);
  return p;
}

describe('poddisruptionbudgets', () => {
  it('is policy/v1 with short name pdb', () => {
    assert.deepEqual(policyGroup.versions.map((v) => v.version), ['v1']);
    assert.deepEqual(podDisruptionBudgets.shortNames, ['pdb']);
  });

  const cases: { name: string; mut: (p: PodDisruptionBudget) => void; want: string[] }[] = [
    { name: 'valid minAvailable', mut: (p) => { p.spec.minAvailable = 2; }, want: [] },
    { name: 'valid maxUnavailable percent', mut: (p) => { p.spec.maxUnavailable = '25%'; }, want: [] },
    { name: 'both set', mut: (p) => { p.spec.minAvailable = 1; p.spec.maxUnavailable = 1; },
      want: ['spec: Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"app":"web"}},"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set'] },
    { name: 'negative', mut: (p) => { p.spec.minAvailable = -1; },
      want: ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0'] },
    { name: 'not a percent', mut: (p) => { p.spec.maxUnavailable = 'half'; },
      want: ['spec.maxUnavailable: Invalid value: "half": a valid percent string must be a numeric string followed by an ending \'%\' (e.g. \'1%\',  or \'93%\', regex used for validation is \'[0-9]+%\')'] },
    { name: 'over 100%', mut: (p) => { p.spec.minAvailable = '120%'; },
      want: ['spec.minAvailable: Invalid value: "120%": must not be greater than 100%'] },
    // ValidatePodDisruptionBudget checks no metadata: only the generic path-segment rule applies
    { name: 'name that is no DNS subdomain', mut: (p) => { p.metadata.name = 'Bad_Name'; }, want: [] },
    { name: 'bad eviction policy', mut: (p) => { p.spec.unhealthyPodEvictionPolicy = 'Never'; },
      want: ['spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"'] },
  ];
  for (const c of cases) {
    it(`validates ${c.name}`, () => assert.deepEqual(podDisruptionBudgets.strategy.validate(ctx, pdb(c.mut)).map(formatFieldError), c.want));
  }

  it('resets status on create, keeps it on update, bumps generation, status updates keep spec', () => {
    const p = pdb((x) => { x.spec.minAvailable = 1; x.status = { disruptionsAllowed: 5, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 }; });
    podDisruptionBudgets.strategy.prepareForCreate(ctx, p);
    assert.deepEqual(p.status, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    assert.equal(p.metadata.generation, 1);
    const old = structuredClone(p);
    old.status = { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 };
    const next = structuredClone(p);
    next.spec.minAvailable = 2;
    podDisruptionBudgets.strategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.status, old.status);
    assert.equal(next.metadata.generation, 2);
    const st = structuredClone(old);
    st.spec.minAvailable = 9;
    st.status = { disruptionsAllowed: -1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 };
    podDisruptionBudgets.statusStrategy.prepareForUpdate(ctx, st, old);
    assert.equal(st.spec.minAvailable, 1);
    assert.deepEqual(podDisruptionBudgets.statusStrategy.validateUpdate(ctx, st, old).map(formatFieldError),
      ['status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0']);
  });

  type Conditions = NonNullable<NonNullable<PodDisruptionBudget['status']>['conditions']>;
  const conditionCases: { name: string; conditions: Conditions; want: string[] }[] = [
    { name: 'valid', conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }], want: [] },
    { name: 'no lastTransitionTime', conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: '' }] as unknown as Conditions,
      want: ['status.conditions[0].lastTransitionTime: Required value'] },
    { name: 'status Bogus', conditions: [{ type: 'Ready', status: 'Bogus', reason: 'Ok', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }],
      want: ['status.conditions[0].status: Unsupported value: "Bogus": supported values: "False", "True", "Unknown"'] },
    { name: 'duplicate type', conditions: [
      { type: 'Ready', status: 'True', reason: 'Ok', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' },
      { type: 'Ready', status: 'False', reason: 'Ok', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' },
    ], want: ['status.conditions[1].type: Duplicate value: "Ready"'] },
  ];
  for (const c of conditionCases) {
    it(`status conditions (ValidateConditions): ${c.name}`, () => {
      const old = pdb();
      const next = pdb((x) => { x.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, conditions: c.conditions }; });
      assert.deepEqual(podDisruptionBudgets.statusStrategy.validateUpdate(ctx, next, old).map(formatFieldError), c.want);
    });
  }

  it('prints MIN AVAILABLE, MAX UNAVAILABLE, ALLOWED DISRUPTIONS', () => {
    const p = pdb((x) => { x.spec.minAvailable = '50%'; x.metadata.creationTimestamp = '2024-01-01T00:00:00Z';
      x.status = { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 }; });
    assert.deepEqual(podDisruptionBudgets.table.map((c) => c.cell(p, Date.parse('2024-01-01T00:00:10Z'))), ['web', '50%', 'N/A', 1, '10s']);
    assert.deepEqual(podDisruptionBudgets.table.map((c) => c.name), ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age']);
  });
});
