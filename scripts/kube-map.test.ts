// The header parser of the kube map: which Go references it reads out of a header's prose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anchor, headerText, moduleOf, parseRefs, renderMap, type GoRef } from './kube-map.ts';

const cases: { name: string; text: string; refs: GoRef[] }[] = [
  { name: 'import path in parentheses', text: 'The admission contract (k8s.io/apiserver/pkg/admission): plugins see',
    refs: [{ pkg: 'k8s.io/apiserver/pkg/admission' }] },
  { name: 'kubernetes repository path', text: 'LimitRanger (plugin/pkg/admission/limitranger): a pod',
    refs: [{ pkg: 'k8s.io/kubernetes/plugin/pkg/admission/limitranger' }] },
  { name: 'Go file at the end of a path', text: 'Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/create.go.',
    refs: [{ pkg: 'k8s.io/apiserver/pkg/endpoints/handlers', detail: 'create.go' }] },
  { name: 'brace list of files', text: 'Counterpart of pkg/registry/core/configmap/{strategy.go,storage/storage.go} + columns.',
    refs: [{ pkg: 'k8s.io/kubernetes/pkg/registry/core/configmap', detail: '{strategy.go,storage/storage.go}' }] },
  { name: 'module name then its path', text: 'list types (apiextensions-apiserver pkg/apiserver/schema/listtype): a set',
    refs: [{ pkg: 'k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype' }] },
  { name: 'import path of a module then a path in it', text: 'as (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1 marshal.go).',
    refs: [{ pkg: 'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1' }] },
  { name: 'Go name at the end of a path', text: 'the QoS class (pkg/apis/core/helper/qos.GetPodQOS)',
    refs: [{ pkg: 'k8s.io/kubernetes/pkg/apis/core/helper/qos', detail: 'GetPodQOS' }] },
  { name: 'qualified name of a known package', text: 'metav1.LabelSelector and its conversion',
    refs: [{ pkg: 'k8s.io/apimachinery/pkg/apis/meta/v1', detail: 'LabelSelector' }] },
  { name: 'standard library path and name', text: "Go's strconv.Quote and encoding/json's quoteChar",
    refs: [{ pkg: 'strconv', detail: 'Quote' }, { pkg: 'encoding/json' }] },
  { name: 'an API group is not an import path', text: 'resource.k8s.io/v1beta1 <-> v1 (the hub)', refs: [] },
  { name: 'no Go counterpart', text: 'Summary statistics. No Go counterpart: the bench.', refs: [{ pkg: 'kapi' }] },
  { name: 'prose only', text: 'Helpers shared by the storage conformance suites.', refs: [] },
  { name: 'repeats once', text: 'k8s.io/apiserver/pkg/server and again k8s.io/apiserver/pkg/server',
    refs: [{ pkg: 'k8s.io/apiserver/pkg/server' }] },
];

for (const c of cases) {
  test(`parseRefs: ${c.name}`, () => assert.deepEqual(parseRefs(c.text), c.refs));
}

test('headerText: leading comment lines after a shebang, joined', () => {
  assert.equal(headerText('#!/usr/bin/env node\n// One\n// two.\nimport x from "y";\n// later'), 'One two.');
  assert.equal(headerText('export { a } from "./a.ts";\n'), '');
});

test('moduleOf: hosts with owner/repo modules, the standard library, kapi', () => {
  assert.equal(moduleOf('k8s.io/apiserver/pkg/server'), 'k8s.io/apiserver');
  assert.equal(moduleOf('github.com/google/go-cmp/cmp'), 'github.com/google/go-cmp');
  assert.equal(moduleOf('encoding/json'), 'Go standard library');
  assert.equal(moduleOf('kapi'), 'kapi only (no Go counterpart)');
});

test('renderMap: a row per package and file, modules linked by their anchors', () => {
  const md = renderMap([
    { file: 'src/a.ts', text: '', refs: [{ pkg: 'k8s.io/apiserver/pkg/server', detail: 'config.go' }] },
    { file: 'src/b.ts', text: '', refs: [{ pkg: 'k8s.io/kubernetes/pkg/registry/core/pod' }, { pkg: 'kapi' }] },
  ]);
  assert.match(md, /\| `pkg\/server` \| \[src\/a\.ts\]\(\.\.\/src\/a\.ts\) \| `config\.go` \|/);
  assert.match(md, /- \[k8s\.io\/kubernetes\]\(#k8siokubernetes\): 1 packages/);
  assert.ok(md.indexOf('## k8s.io/kubernetes') < md.indexOf('## k8s.io/apiserver'), 'kubernetes first');
  assert.equal(anchor('kapi only (no Go counterpart)'), 'kapi-only-no-go-counterpart');
});
