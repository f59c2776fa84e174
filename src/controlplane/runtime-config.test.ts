import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiserverinternalGroup } from '../apis/apiserverinternal/install.ts';
import { storagemigrationGroup } from '../apis/storagemigration/install.ts';
import { resolveRuntimeConfig, stabilityOf } from './runtime-config.ts';

const KNOWN = [
  { group: '', version: 'v1' }, { group: 'apps', version: 'v1' }, { group: 'storage.k8s.io', version: 'v1beta1' },
  { group: 'coordination.k8s.io', version: 'v1alpha2' },
];

describe('--runtime-config', () => {
  const cases: { name: string; config: Record<string, string>; on: string[]; off: string[] }[] = [
    { name: 'defaults: GA on, beta and alpha off', config: {},
      on: ['/v1', 'apps/v1'], off: ['storage.k8s.io/v1beta1', 'coordination.k8s.io/v1alpha2'] },
    { name: 'api/all=true', config: { 'api/all': 'true' }, on: ['storage.k8s.io/v1beta1', 'coordination.k8s.io/v1alpha2'], off: [] },
    { name: 'api/beta=true', config: { 'api/beta': 'true' }, on: ['storage.k8s.io/v1beta1'], off: ['coordination.k8s.io/v1alpha2'] },
    { name: 'specific wins over api/all', config: { 'api/all': 'false', 'apps/v1': 'true' }, on: ['apps/v1'], off: ['/v1'] },
    { name: 'empty value means true', config: { 'coordination.k8s.io/v1alpha2': '' }, on: ['coordination.k8s.io/v1alpha2'], off: [] },
    { name: 'core as api/v1', config: { 'api/v1': 'false' }, on: ['apps/v1'], off: ['/v1'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const enabled = resolveRuntimeConfig(c.config, KNOWN);
      for (const gv of c.on) assert.equal(enabled(gv.split('/')[0] ?? '', gv.split('/')[1] ?? ''), true, gv);
      for (const gv of c.off) assert.equal(enabled(gv.split('/')[0] ?? '', gv.split('/')[1] ?? ''), false, gv);
    });
  }
  it('rejects unknown group versions and bad values', () => {
    assert.throws(() => resolveRuntimeConfig({ 'foo/v1': 'true' }, KNOWN), { message: 'unknown api groups foo/v1' });
    assert.throws(() => resolveRuntimeConfig({ 'apps/v1': 'maybe' }, KNOWN), /invalid value of apps\/v1: maybe/);
  });
  it('knows the built-in storagemigration.k8s.io/v1beta1 and internal.apiserver.k8s.io/v1alpha1, off by default', () => {
    const known = [...KNOWN, ...[storagemigrationGroup, apiserverinternalGroup].flatMap((g) => g.versions.map((v) => ({ group: g.group, version: v.version })))];
    const defaults = resolveRuntimeConfig({}, known);
    assert.equal(defaults('storagemigration.k8s.io', 'v1beta1'), false);
    assert.equal(defaults('internal.apiserver.k8s.io', 'v1alpha1'), false);
    const on = resolveRuntimeConfig({ 'storagemigration.k8s.io/v1beta1': 'true', 'internal.apiserver.k8s.io/v1alpha1': 'true' }, known);
    assert.equal(on('storagemigration.k8s.io', 'v1beta1'), true);
    assert.equal(on('internal.apiserver.k8s.io', 'v1alpha1'), true);
  });
  it('classifies versions', () => {
    assert.deepEqual(['v1', 'v2', 'v1beta3', 'v2alpha1'].map(stabilityOf), ['ga', 'ga', 'beta', 'alpha']);
  });
});
