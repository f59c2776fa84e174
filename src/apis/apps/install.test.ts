import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { appsGroup } from './install.ts';

interface DiscoveryResource { name: string; kind: string; namespaced: boolean; shortNames?: string[]; categories?: string[] }

describe('apps group', () => {
  it('serves what the reference discovery of apps/v1 lists', () => {
    const ref = JSON.parse(readFileSync(new URL('../../../../shared/reference/kubernetes/api/discovery/apis__apps__v1.json', import.meta.url), 'utf8')) as { resources: DiscoveryResource[] };
    const main = ref.resources.filter((r) => !r.name.includes('/'));
    const subresources = new Set(ref.resources.filter((r) => r.name.includes('/')).map((r) => r.name));
    assert.equal(appsGroup.group, 'apps');
    assert.deepEqual(appsGroup.versions.map((v) => v.version), ['v1']);
    const defs = appsGroup.versions[0]?.resources ?? [];
    assert.deepEqual(defs.map((d) => d.resource).sort(), main.map((r) => r.name).sort());
    for (const r of main) {
      const d = defs.find((x) => x.resource === r.name);
      assert.ok(d !== undefined, r.name);
      assert.equal(d.kind, r.kind, r.name);
      assert.equal(d.namespaced, r.namespaced, r.name);
      assert.deepEqual(d.shortNames ?? [], r.shortNames ?? [], r.name);
      assert.deepEqual(d.categories ?? [], r.categories ?? [], r.name);
      assert.equal(d.statusStrategy !== undefined, subresources.has(`${r.name}/status`), `${r.name}/status`);
      assert.equal(d.scale !== undefined, subresources.has(`${r.name}/scale`), `${r.name}/scale`);
    }
  });
});
