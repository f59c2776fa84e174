// Namespace labels to policy (k8s.io/pod-security-admission/api PolicyToEvaluate): defaults,
// bad values failing closed for enforce and open for audit and warn, warn raised to enforce.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { compareLevels, lvString, parseVersion, policyToEvaluate, PRIVILEGED_POLICY, v1, type Policy } from './api.ts';

const show = (p: Policy): string => `enforce=${lvString(p.enforce)} audit=${lvString(p.audit)} warn=${lvString(p.warn)}`;
const P = 'pod-security.kubernetes.io/';

describe('policyToEvaluate', () => {
  const cases: { name: string; labels: Record<string, string>; want: string; errors?: string[] }[] = [
    { name: 'no labels: the defaults', labels: {}, want: 'enforce=privileged:latest audit=privileged:latest warn=privileged:latest' },
    { name: 'enforce raises warn with its version', labels: { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'v1.20' }, want: 'enforce=baseline:v1.20 audit=privileged:latest warn=baseline:v1.20' },
    { name: 'a warn version is kept when warn is raised', labels: { [`${P}enforce`]: 'restricted', [`${P}warn-version`]: 'v1.2' }, want: 'enforce=restricted:latest audit=privileged:latest warn=restricted:v1.2' },
    { name: 'an explicit warn level is kept', labels: { [`${P}enforce`]: 'restricted', [`${P}warn`]: 'privileged' }, want: 'enforce=restricted:latest audit=privileged:latest warn=privileged:latest' },
    { name: 'a version alone changes no level', labels: { [`${P}enforce-version`]: 'v1.3' }, want: 'enforce=privileged:v1.3 audit=privileged:latest warn=privileged:latest' },
    {
      name: 'a bad enforce level fails closed and does not raise warn', labels: { [`${P}enforce`]: 'x' },
      want: 'enforce=restricted:latest audit=privileged:latest warn=privileged:latest',
      errors: [`metadata.labels[${P}enforce]: Invalid value: "x": must be one of privileged, baseline, restricted`],
    },
    {
      name: 'bad audit and warn levels fail open', labels: { [`${P}audit`]: 'x', [`${P}warn`]: 'y', [`${P}warn-version`]: 'v2' },
      want: 'enforce=privileged:latest audit=privileged:latest warn=privileged:latest',
      errors: [
        `metadata.labels[${P}audit]: Invalid value: "x": must be one of privileged, baseline, restricted`,
        `metadata.labels[${P}warn]: Invalid value: "y": must be one of privileged, baseline, restricted`,
        `metadata.labels[${P}warn-version]: Invalid value: "v2": must be "latest" or "v1.x"`,
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = policyToEvaluate(c.labels, PRIVILEGED_POLICY);
      assert.equal(show(r.policy), c.want);
      assert.deepEqual(r.errors.map(formatFieldError), c.errors ?? []);
    });
  }
});

describe('parseVersion', () => {
  const cases: [string, string | undefined][] = [['latest', 'latest'], ['v1.0', 'v1.0'], ['v1.36', 'v1.36'], ['v1.01', undefined],
    ['v2.0', undefined], ['1.2', undefined], ['v1.', undefined], ['Latest', undefined]];
  for (const [input, want] of cases) {
    it(input, () => {
      const r = parseVersion(input);
      assert.equal(r.error === undefined ? lvString({ level: 'baseline', version: r.version }).slice('baseline:'.length) : undefined, want);
    });
  }
  it('orders levels by strictness', () => {
    assert.deepEqual([compareLevels('restricted', 'baseline'), compareLevels('privileged', 'baseline'), compareLevels('baseline', 'baseline')], [1, -1, 0]);
    assert.equal(lvString({ level: 'restricted', version: v1(7) }), 'restricted:v1.7');
  });
});
