// Discovery equal to the reference: every group version kube-apiserver v1.36 serves by default
// (the GA ones), resource by resource: kind, scope, verbs, short names, categories, subresources.
// The reference is shared/reference/kubernetes/API-SURFACE.md, generated from upstream's
// discovery documents and swagger.json.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSuite, type Suite } from './testing/suite.ts';

const SURFACE = join(dirname(fileURLToPath(import.meta.url)), '../../../shared/reference/kubernetes/API-SURFACE.md');
const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

interface RefResource {
  name: string; kind: string; namespaced: boolean; verbs: string[];
  shortNames: string[] | undefined; categories: string[] | undefined;
  subresources: { name: string; verbs: string[]; kind: string }[];
}
interface RefGroupVersion { group: string; version: string; ga: boolean; resources: RefResource[] }

const list = (cell: string): string[] | undefined =>
  cell === '?' ? undefined : cell === '' ? [] : cell.split(',').map((s) => s.trim()).sort();

function parseSurface(text: string): RefGroupVersion[] {
  const out: RefGroupVersion[] = [];
  let cur: RefGroupVersion | undefined;
  for (const line of text.split('\n')) {
    const h = /^### (\S+) ?(v\S*)?\s+\((GA|beta|alpha)\)/.exec(line);
    if (h !== null) {
      const gv = h[1] === 'core' ? { group: '', version: h[2] ?? 'v1' } : { group: (h[1] ?? '').split('/')[0] ?? '', version: (h[1] ?? '').split('/')[1] ?? '' };
      cur = { ...gv, ga: h[3] === 'GA', resources: [] };
      out.push(cur);
      continue;
    }
    if (line.startsWith('## ')) cur = undefined;
    if (cur === undefined || !line.startsWith('| ') || line.startsWith('| resource |') || line.startsWith('|---')) continue;
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    const [name = '', kind = '', ns = '', verbs = '', shortNames = '', categories = '', subs = ''] = cells;
    cur.resources.push({
      name, kind, namespaced: ns === 'yes', verbs: verbs === 'all 8' ? ALL_VERBS : (list(verbs) ?? []),
      shortNames: list(shortNames), categories: list(categories),
      subresources: subs === '' ? [] : subs.split(/; (?=[a-z]+\()/).map((s) => {
        const m = /^([a-z]+)\(([^;)]*)(?:; (.*))?\)$/.exec(s.trim());
        const kindPart = (m?.[3] ?? '').split(' ');
        return { name: m?.[1] ?? s, verbs: (m?.[2] ?? '').split(',').sort(), kind: kindPart[kindPart.length - 1] ?? '' };
      }).sort((a, b) => a.name.localeCompare(b.name)),
    });
  }
  return out;
}

async function getJSON(suite: Suite, path: string): Promise<unknown> {
  const res = await suite.request({ method: 'GET', path });
  assert.equal(res.status, 200, `GET ${path}: ${res.text}`);
  return res.json();
}

interface APIResource { name: string; kind: string; namespaced: boolean; verbs: string[]; shortNames?: string[]; categories?: string[] }

describe('discovery equals the v1.36 reference for every default group version', () => {
  let suite: Suite;
  const reference = parseSurface(readFileSync(SURFACE, 'utf8')).filter((gv) => gv.ga);
  before(async () => { suite = await startSuite(); });
  after(async () => { await suite.close(); });

  it('serves exactly the GA group versions of the reference', async () => {
    const groups = await getJSON(suite, '/apis') as { groups: { name: string; versions: { version: string }[] }[] };
    const served = groups.groups.flatMap((g) => g.versions.map((v) => `${g.name}/${v.version}`)).sort();
    const want = reference.filter((gv) => gv.group !== '').map((gv) => `${gv.group}/${gv.version}`).sort();
    assert.deepEqual(served, want);
  });

  for (const gv of reference) {
    const path = gv.group === '' ? `/api/${gv.version}` : `/apis/${gv.group}/${gv.version}`;
    it(`${gv.group === '' ? 'core' : gv.group}/${gv.version}`, async () => {
      const doc = await getJSON(suite, path) as { resources: APIResource[] };
      const byName = new Map(doc.resources.map((r) => [r.name, r]));
      const problems: string[] = [];
      for (const ref of gv.resources) {
        const got = byName.get(ref.name);
        if (got === undefined) { problems.push(`${ref.name}: not served`); continue; }
        if (got.kind !== ref.kind) problems.push(`${ref.name}: kind ${got.kind}, want ${ref.kind}`);
        if (got.namespaced !== ref.namespaced) problems.push(`${ref.name}: namespaced ${got.namespaced}`);
        if ([...got.verbs].sort().join() !== ref.verbs.join()) problems.push(`${ref.name}: verbs ${[...got.verbs].sort().join()}, want ${ref.verbs.join()}`);
        if (ref.shortNames !== undefined && [...got.shortNames ?? []].sort().join() !== ref.shortNames.join()) {
          problems.push(`${ref.name}: shortNames ${(got.shortNames ?? []).join()}, want ${ref.shortNames.join()}`);
        }
        if (ref.categories !== undefined && [...got.categories ?? []].sort().join() !== ref.categories.join()) {
          problems.push(`${ref.name}: categories ${(got.categories ?? []).join()}, want ${ref.categories.join()}`);
        }
        for (const sub of ref.subresources) {
          const s = byName.get(`${ref.name}/${sub.name}`);
          if (s === undefined) { problems.push(`${ref.name}/${sub.name}: not served`); continue; }
          if ([...s.verbs].sort().join() !== sub.verbs.join()) problems.push(`${ref.name}/${sub.name}: verbs ${[...s.verbs].sort().join()}, want ${sub.verbs.join()}`);
          const wantKind = sub.kind === '' ? ref.kind : sub.kind;
          if (s.kind !== wantKind) problems.push(`${ref.name}/${sub.name}: kind ${s.kind}, want ${wantKind}`);
        }
      }
      const extra = doc.resources.filter((r) => !r.name.includes('/') && !gv.resources.some((x) => x.name === r.name));
      for (const r of extra) problems.push(`${r.name}: served but not in the reference`);
      assert.deepEqual(problems, []);
    });
  }
});
