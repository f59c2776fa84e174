// PodSecurityConfiguration from --admission-control-config-file: defaults, versions, and kube's
// validation of defaults and exemptions.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lvString } from './api.ts';
import { parsePodSecurityConfiguration, parsePodSecurityConfigurationText } from './config.ts';

const base = { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration' };

describe('PodSecurityConfiguration', () => {
  it('none: privileged:latest everywhere, no exemptions', () => {
    const c = parsePodSecurityConfiguration(undefined);
    assert.deepEqual([lvString(c.defaults.enforce), lvString(c.defaults.audit), lvString(c.defaults.warn)], ['privileged:latest', 'privileged:latest', 'privileged:latest']);
    assert.deepEqual(c.exemptions, { usernames: [], namespaces: [], runtimeClasses: [] });
  });

  it('v1beta1 with defaults and exemptions', () => {
    const c = parsePodSecurityConfiguration({ ...base, apiVersion: 'pod-security.admission.config.k8s.io/v1beta1',
      defaults: { enforce: 'baseline', 'enforce-version': 'v1.30', audit: 'restricted' }, exemptions: { usernames: ['u'], namespaces: ['kube-system'], runtimeClasses: ['kata'] } });
    assert.deepEqual([lvString(c.defaults.enforce), lvString(c.defaults.audit), lvString(c.defaults.warn)], ['baseline:v1.30', 'restricted:latest', 'privileged:latest']);
    assert.deepEqual(c.exemptions, { usernames: ['u'], namespaces: ['kube-system'], runtimeClasses: ['kata'] });
  });

  it('YAML text', () => {
    const c = parsePodSecurityConfigurationText('apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: restricted\n');
    assert.equal(lvString(c.defaults.enforce), 'restricted:latest');
  });

  const refused: [string, unknown, string][] = [
    ['a bad level', { ...base, defaults: { enforce: 'strict' } }, 'PodSecurity configuration error: enforce: must be one of privileged, baseline, restricted'],
    ['bad versions', { ...base, defaults: { 'warn-version': 'v2', 'audit-version': 'x' } }, 'PodSecurity configuration error: [audit-version: must be "latest" or "v1.x", warn-version: must be "latest" or "v1.x"]'],
    ['bad and duplicate exemptions', { ...base, exemptions: { namespaces: ['Bad', 'a', 'a'], usernames: [''], runtimeClasses: ['x_y'] } },
      'PodSecurity invalid: [exemptions.namespaces[0]: Invalid value: "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\'), exemptions.namespaces[2]: Duplicate value: "a", exemptions.runtimeClasses[0]: Invalid value: "x_y": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\'), exemptions.usernames[0]: Invalid value: "": username must not be empty]'],
    ['another kind', { apiVersion: 'v1', kind: 'Pod' }, 'no kind "Pod" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"'],
  ];
  for (const [name, raw, want] of refused) {
    it(`refuses ${name}`, () => assert.throws(() => parsePodSecurityConfiguration(raw), (err: Error) => { assert.equal(err.message, want); return true; }));
  }
});
