// The seven groups helper-owned here, checked against the v1.36 reference: every resource path in
// swagger.json is served with the right kind, scope and subresources, and discovery's short names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { admissionregistrationGroup } from '../admissionregistration/install.ts';
import { certificatesGroup } from '../certificates/install.ts';
import { flowcontrolGroup } from '../flowcontrol/install.ts';
import { nodeGroup } from '../node/install.ts';
import { resourceGroup } from '../resource/install.ts';
import { schedulingGroup } from '../scheduling/install.ts';
import { storageGroup } from './install.ts';

const REF = '/work/shared/reference/kubernetes/api';
const swagger = JSON.parse(readFileSync(`${REF}/openapi-spec/swagger.json`, 'utf8')) as { paths: Record<string, unknown> };

/** "resource" or "resource/sub" → namespaced?, from the reference paths of one group version. */
function referencePaths(group: string, version: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const prefix = `/apis/${group}/${version}/`;
  for (const p of Object.keys(swagger.paths)) {
    if (!p.startsWith(prefix)) continue;
    const parts = p.slice(prefix.length).split('/').filter((x) => x !== 'watch');
    const namespaced = parts[0] === 'namespaces' && parts.length > 2;
    const rest = (namespaced ? parts.slice(2) : parts).filter((x) => !x.startsWith('{'));
    if (rest.length === 0 || rest[0] === '' || rest[0] === 'namespaces') continue;
    // Namespaced resources also have a cluster-wide list path; any namespaced path decides.
    out.set(rest.join('/'), (out.get(rest.join('/')) ?? false) || namespaced);
  }
  return out;
}

function servedPaths(g: APIGroupDefinition, version: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const r of g.versions.find((v) => v.version === version)?.resources ?? []) {
    out.set(r.resource, r.namespaced);
    if (r.statusStrategy !== undefined) out.set(`${r.resource}/status`, r.namespaced);
    for (const sub of Object.keys(r.updateSubresources ?? {})) out.set(`${r.resource}/${sub}`, r.namespaced);
  }
  return out;
}

const groups = [storageGroup, schedulingGroup, nodeGroup, certificatesGroup, admissionregistrationGroup, flowcontrolGroup, resourceGroup];

describe('API surface of storage, scheduling, node, certificates, admissionregistration, flowcontrol, resource', () => {
  for (const g of groups) {
    for (const v of g.versions) {
      it(`${g.group}/${v.version} serves the reference paths`, () => {
        assert.deepEqual([...servedPaths(g, v.version)].sort(), [...referencePaths(g.group, v.version)].sort());
        for (const r of v.resources) assert.equal(r.group, g.group);
      });
    }
  }

  it('declares every version the reference serves kinds in', () => {
    for (const g of groups) {
      const versions = new Set<string>();
      for (const p of Object.keys(swagger.paths)) {
        const m = new RegExp(`^/apis/${g.group.replaceAll('.', '\\.')}/([^/]+)/.+`).exec(p);
        if (m?.[1] !== undefined) versions.add(m[1]);
      }
      assert.deepEqual(g.versions.map((v) => v.version).sort(), [...versions].sort(), g.group);
    }
  });

  const discovery: { file: string; group: APIGroupDefinition; version: string }[] = [
    { file: 'apis__storage.k8s.io__v1.json', group: storageGroup, version: 'v1' },
    { file: 'apis__storage.k8s.io__v1beta1.json', group: storageGroup, version: 'v1beta1' },
    { file: 'apis__scheduling.k8s.io__v1.json', group: schedulingGroup, version: 'v1' },
    { file: 'apis__scheduling.k8s.io__v1alpha2.json', group: schedulingGroup, version: 'v1alpha2' },
    { file: 'apis__node.k8s.io__v1.json', group: nodeGroup, version: 'v1' },
    { file: 'apis__certificates.k8s.io__v1.json', group: certificatesGroup, version: 'v1' },
    { file: 'apis__flowcontrol.apiserver.k8s.io__v1.json', group: flowcontrolGroup, version: 'v1' },
    { file: 'apis__resource.k8s.io__v1.json', group: resourceGroup, version: 'v1' },
  ];
  for (const d of discovery) {
    it(`names, kinds and short names match ${d.file}`, () => {
      const doc = JSON.parse(readFileSync(`${REF}/discovery/${d.file}`, 'utf8')) as { resources: { name: string; singularName: string; kind: string; namespaced: boolean; shortNames?: string[]; categories?: string[] }[] };
      const want = doc.resources.filter((r) => !r.name.includes('/'))
        .map((r) => [r.name, r.singularName, r.kind, r.namespaced, r.shortNames ?? [], r.categories ?? []]);
      const got = (d.group.versions.find((v) => v.version === d.version)?.resources ?? [])
        .map((r) => [r.resource, r.singular, r.kind, r.namespaced, [...(r.shortNames ?? [])], [...(r.categories ?? [])]]);
      assert.deepEqual(got.sort(), want.sort());
    });
  }
});
