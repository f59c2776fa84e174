// The patch types of MutatingAdmissionPolicy expressions; expected texts are kube-apiserver
// v1.36.3's answers to policies with these expressions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compile, compileWithPatchTypes, DynType, dynToCel, evaluate, newEnvironment, patchValueToJSON, typeNameMismatches,
} from './index.ts';
import { rewriteObjectConstruction } from './mutation-rewrite.ts';

const vars = [{ name: 'object', type: DynType }];
const caret = (expr: string, col: number): string => ` | ${expr}\n | ${'.'.repeat(col - 1)}^`;

describe('compile with patch types (HasPatchTypes)', () => {
  const cases: { name: string; expression: string; want: string }[] = [
    { name: 'an Object construction', expression: 'Object{metadata: Object.metadata{labels: {"a": "b"}}}', want: 'Object' },
    { name: 'a nested field type', expression: 'Object.spec.containers{name: "c"}', want: 'Object.spec.containers' },
    { name: 'a list of JSONPatch', expression: '[JSONPatch{op: "add", path: "/x", value: [1, 2]}]', want: 'list(JSONPatch)' },
    { name: 'a dyn path is accepted', expression: '[JSONPatch{op: "add", path: object.p, value: 1}]', want: 'list(JSONPatch)' },
    { name: 'jsonpatch.escapeKey', expression: 'jsonpatch.escapeKey("a/b")', want: 'string' },
    { name: 'a map literal after in is no construction', expression: '"a" in {"a": 1}', want: 'bool' },
    { name: 'an optional field', expression: 'Object{?spec: optional.none()}', want: 'Object' },
    { name: 'an undeclared reference inside, located in the original text', expression: 'Object{data: nope}',
      want: `compilation failed: ERROR: <input>:1:14: undeclared reference to 'nope' (in container '')\n${caret('Object{data: nope}', 14)}` },
    { name: 'an unclosed construction: the syntax error at the end', expression: 'Object{data:',
      want: `compilation failed: ERROR: <input>:1:13: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n${caret('Object{data:', 13)}` },
    { name: 'a JSONPatch field of the wrong type, at its colon', expression: '[JSONPatch{op: 1, path: "/x"}]',
      want: `compilation failed: ERROR: <input>:1:14: expected type of field 'op' is 'string' but provided type is 'int'\n${caret('[JSONPatch{op: 1, path: "/x"}]', 14)}` },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = compileWithPatchTypes(c.expression, vars);
      assert.equal(r.error?.detail ?? r.program?.outputType, c.want);
    });
  }
});

describe('an object construction without the patch types (variables, match conditions)', () => {
  const cases: { name: string; expression: string; want: string }[] = [
    { name: 'one', expression: 'Object{}', want: `compilation failed: ERROR: <input>:1:7: undeclared reference to 'Object' (in container '')\n${caret('Object{}', 7)}` },
    { name: 'two, each at its brace', expression: 'Object{} == Object{}',
      want: `compilation failed: ERROR: <input>:1:7: undeclared reference to 'Object' (in container '')\n${caret('Object{} == Object{}', 7)}\n`
        + `ERROR: <input>:1:19: undeclared reference to 'Object' (in container '')\n${caret('Object{} == Object{}', 19)}` },
  ];
  for (const c of cases) it(c.name, () => assert.equal(compile(c.expression, newEnvironment(vars)).error?.detail, c.want));
});

describe('values of constructions', () => {
  const cases: { name: string; expression: string; want: unknown; mismatches?: string[] }[] = [
    { name: 'an apply configuration as JSON', expression: 'Object{spec: Object.spec{replicas: 3, names: ["a"], m: {"k": object.v}}}',
      want: { spec: { replicas: 3, names: ['a'], m: { k: 'x' } } } },
    { name: 'objects in lists from a comprehension', expression: 'Object{spec: Object.spec{containers: object.cs.map(c, Object.spec.containers{name: c})}}',
      want: { spec: { containers: [{ name: 'a' }, { name: 'b' }] } } },
    { name: 'an unset optional field is left out', expression: 'Object{?a: optional.none(), ?b: optional.of(1)}', want: { b: 1 } },
    { name: 'JSONPatch operations', expression: '[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("k8s.io/a~b"), value: "v"}]',
      want: [{ op: 'add', path: '/metadata/labels/k8s.io~1a~0b', from: '', value: 'v' }] },
    { name: 'a type name that does not follow the field path', expression: 'Object{spec: Object.spec{selector: Object.spec.wrong{}}}',
      want: { spec: { selector: {} } }, mismatches: ['unexpected type name "Object.spec.wrong", expected "Object.spec.selector", which matches field name path from root Object type'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = compileWithPatchTypes(c.expression, vars);
      assert.equal(r.error, undefined);
      const v = evaluate(r.program!, { object: dynToCel({ v: 'x', cs: ['a', 'b'] }) });
      assert.equal(v.error, undefined);
      const value = Array.isArray(v.value) ? v.value.map((p: { op: string; path: string; from: string; value: unknown }) => ({ ...p })) : v.value;
      assert.deepEqual(patchValueToJSON(value), c.want);
      assert.deepEqual(typeNameMismatches(v.value), c.mismatches ?? []);
    });
  }
});

describe('rewriteObjectConstruction', () => {
  it('maps offsets back to the original text', () => {
    const src = 'Object{a: Object.a{b: 1}}';
    const r = rewriteObjectConstruction(src);
    assert.deepEqual(r.typeNames, ['Object', 'Object.a']);
    assert.equal(r.toOriginal(r.source.indexOf('1')), src.indexOf('1'));
  });
  it('leaves strings and comments alone', () => {
    const src = '"Object{a: 1}" + \'x{\' // Object{}\n';
    assert.equal(rewriteObjectConstruction(src).source, src);
  });
});
