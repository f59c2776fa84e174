// The wire-type generator: module names, import paths, and the TypeScript it writes for each
// kind of schema node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Definitions } from '../src/apimachinery/openapi/types.ts';
import { generateTypes, goImportPath, packageAlias } from './generate-types.ts';

const aliases: { name: string; pkg: string; alias: string; path: string }[] = [
  { name: 'core group', pkg: 'io.k8s.api.core.v1', alias: 'corev1', path: 'k8s.io/api/core/v1' },
  { name: 'beta version', pkg: 'io.k8s.api.resource.v1beta2', alias: 'resourcev1beta2', path: 'k8s.io/api/resource/v1beta2' },
  { name: 'meta', pkg: 'io.k8s.apimachinery.pkg.apis.meta.v1', alias: 'metav1', path: 'k8s.io/apimachinery/pkg/apis/meta/v1' },
  { name: 'unversioned package', pkg: 'io.k8s.apimachinery.pkg.util.intstr', alias: 'intstr', path: 'k8s.io/apimachinery/pkg/util/intstr' },
  { name: 'extension server', pkg: 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1', alias: 'apiregistrationv1',
    path: 'k8s.io/kube-aggregator/pkg/apis/apiregistration/v1' },
];
for (const c of aliases) {
  test(`packageAlias and goImportPath: ${c.name}`, () => {
    assert.equal(packageAlias(c.pkg), c.alias);
    assert.equal(goImportPath(c.pkg), c.path);
  });
}

const defs: Definitions = {
  'io.k8s.api.example.v1.Widget': {
    type: 'object', required: ['spec'],
    'x-kubernetes-group-version-kind': [{ group: 'example.k8s.io', version: 'v1', kind: 'Widget' }],
    properties: {
      metadata: { $ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
      spec: { $ref: 'io.k8s.api.example.v1.WidgetSpec' },
    },
  },
  'io.k8s.api.example.v1.WidgetSpec': {
    type: 'object',
    properties: {
      size: { $ref: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      ports: { type: 'array', items: { type: 'integer', format: 'int32' } },
      either: { type: 'array', items: { type: 'string', format: 'int-or-string' } },
      'x-odd': { type: 'boolean' },
      raw: {},
    },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { type: 'object', properties: { name: { type: 'string' } } },
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': { type: 'object' },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: 'string', format: 'int-or-string' },
};

test('generateTypes: one module per package, namespace imports, required and optional fields', () => {
  const files = generateTypes(defs);
  assert.deepEqual([...files.keys()].sort(), ['examplev1.gen.ts', 'index.gen.ts', 'intstr.gen.ts', 'metav1.gen.ts']);
  const ex = files.get('examplev1.gen.ts') ?? '';
  for (const line of [
    "import type * as intstr from './intstr.gen.ts';",
    "import type * as metav1 from './metav1.gen.ts';",
    '/** example.k8s.io/v1 Widget */',
    'export interface Widget {',
    '  metadata?: metav1.ObjectMeta;',
    '  spec: WidgetSpec;',
    '  either?: (number | string)[];',
    '  labels?: { [key: string]: string };',
    '  ports?: number[];',
    '  raw?: unknown;',
    '  size?: intstr.IntOrString;',
    '  "x-odd"?: boolean;',
  ]) assert.ok(ex.split('\n').includes(line), `examplev1.gen.ts has ${JSON.stringify(line)}:\n${ex}`);
  assert.match(files.get('metav1.gen.ts') ?? '', /export type FieldsV1 = \{ \[key: string\]: unknown \};/);
  assert.match(files.get('intstr.gen.ts') ?? '', /export type IntOrString = number \| string;/);
  assert.match(files.get('index.gen.ts') ?? '', /export type \* as examplev1 from '\.\/examplev1\.gen\.ts';/);
});

test('generateTypes: two packages that would share a module name are refused', () => {
  assert.throws(() => generateTypes({ 'io.k8s.api.a.v1.X': { type: 'string' }, 'io.k8s.other.a.v1.Y': { type: 'string' } }),
    /would share the module name av1/);
});
