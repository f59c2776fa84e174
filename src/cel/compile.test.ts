// compile/evaluate against a CRD-like schema: kube's compile error texts (as kube-apiserver v1.36.3
// returns them in a CRD create's 422 causes) and runtime texts (cel-go's errors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignTypeNames, compile, evaluate, fromCelValue, newEnvironment, schemaDeclType, toCelValue, type CelSchema } from './index.ts';

const schema: CelSchema = {
  type: 'object',
  properties: {
    replicas: { type: 'integer' }, maxReplicas: { type: 'integer' }, name: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
    items: {
      type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'],
      items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'integer' } } },
    },
    m: { type: 'object', additionalProperties: { type: 'string' } },
    sub: { type: 'object', properties: { a: { type: 'number' } } },
  },
};
const t = assignTypeNames(schemaDeclType(schema)!, 'selfType0');
const env = newEnvironment([{ name: 'self', type: t }, { name: 'oldSelf', type: t }]);
const obj = { replicas: 30, maxReplicas: 5, name: 'x', tags: ['a', 'b'], items: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }], m: { a: 'b' }, sub: { a: 1.5 } };
const self = toCelValue(obj, t);
const oldSelf = toCelValue({ ...obj, tags: ['b', 'a'], items: [{ k: 'b', v: 2 }, { k: 'a', v: 1 }] }, t);

const EXPECTING = `{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}`;
const compileErrors: readonly (readonly [string, string])[] = [
  ['self.nonexistent(((', `ERROR: <input>:1:20: Syntax error: mismatched input '<EOF>' expecting ${EXPECTING}\n | self.nonexistent(((\n | ...................^`],
  ['nonexistent == 1', `ERROR: <input>:1:1: undeclared reference to 'nonexistent' (in container '')\n | nonexistent == 1\n | ^`],
  ['self.nonexistent == 1', `ERROR: <input>:1:5: undefined field 'nonexistent'\n | self.nonexistent == 1\n | ....^`],
  ['self.replicas + 1.0 > 2.0', `ERROR: <input>:1:15: found no matching overload for '_+_' applied to '(int, double)'\n | self.replicas + 1.0 > 2.0\n | ..............^`],
  ['self.name.startsWith(1)', `ERROR: <input>:1:21: found no matching overload for 'startsWith' applied to 'string.(int)'\n | self.name.startsWith(1)\n | ....................^`],
  ['self.tags.all(t, t.size() > 1) && self.replicas', `ERROR: <input>:1:39: expected type 'bool' but found 'int'\n | self.tags.all(t, t.size() > 1) && self.replicas\n | ......................................^`],
  ['1u + 2 == 3u', `ERROR: <input>:1:4: found no matching overload for '_+_' applied to '(uint, int)'\n | 1u + 2 == 3u\n | ...^`],
  ['self.replicas == ', `ERROR: <input>:1:18: Syntax error: mismatched input '<EOF>' expecting ${EXPECTING}\n | self.replicas == \n | .................^`],
  [`'abc`, `ERROR: <input>:1:1: Syntax error: token recognition error at: ''abc'\n | 'abc\n | ^\nERROR: <input>:1:5: Syntax error: mismatched input '<EOF>' expecting ${EXPECTING}\n | 'abc\n | ....^`],
  ['self.tags.exists(1, true)', `ERROR: <input>:1:18: argument must be a simple name\n | self.tags.exists(1, true)\n | .................^`],
  ['self.foo.bar', `ERROR: <input>:1:5: undefined field 'foo'\n | self.foo.bar\n | ....^`],
  ['size(self.replicas) > 0', `ERROR: <input>:1:5: found no matching overload for 'size' applied to '(int)'\n | size(self.replicas) > 0\n | ....^`],
  ['self.replicas in self.tags', `ERROR: <input>:1:15: found no matching overload for '@in' applied to '(int, list(string))'\n | self.replicas in self.tags\n | ..............^`],
  ['x.y.z', `ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x.y.z\n | ^`],
  ['has(self.name.x)', `ERROR: <input>:1:4: type 'string' does not support field selection\n | has(self.name.x)\n | ...^`],
  [`self.name.matches('[')`, `ERROR: <input>:1:19: invalid matches argument\n | self.name.matches('[')\n | ..................^`],
  ['isSorted(self.tags)', `ERROR: <input>:1:9: found no matching overload for 'isSorted' applied to '(list(string))'\n | isSorted(self.tags)\n | ........^`],
  ['self.tags.isSorted() && self.replicas.isSorted()', `ERROR: <input>:1:47: found no matching overload for 'isSorted' applied to 'int.()'\n | self.tags.isSorted() && self.replicas.isSorted()\n | ..............................................^`],
  [`[1, 'a'].size() == 2`, `ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a'].size() == 2\n | ....^`],
];

/** Syntax and type errors as kube-apiserver v1.36.3 returned them for these rules (schema: spec.a integer). */
const kubeAnswers: readonly (readonly [string, string])[] = [
  ["self.a..b", "ERROR: <input>:1:8: Syntax error: no viable alternative at input '..'\n | self.a..b\n | .......^"],
  ["self.a ==== 1", "ERROR: <input>:1:10: Syntax error: extraneous input '==' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a ==== 1\n | .........^"],
  ["self.a && || true", "ERROR: <input>:1:11: Syntax error: extraneous input '||' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a && || true\n | ..........^"],
  ["(self.a", "ERROR: <input>:1:8: Syntax error: missing ')' at '<EOF>'\n | (self.a\n | .......^"],
  ["self.a)", "ERROR: <input>:1:7: Syntax error: extraneous input ')' expecting <EOF>\n | self.a)\n | ......^"],
  ["self.a[", "ERROR: <input>:1:8: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a[\n | .......^"],
  ["self.a.", "ERROR: <input>:1:8: Syntax error: no viable alternative at input '.'\n | self.a.\n | .......^"],
  ["1 2", "ERROR: <input>:1:3: Syntax error: extraneous input '2' expecting <EOF>\n | 1 2\n | ..^"],
  ["self.a == 'x", "ERROR: <input>:1:11: Syntax error: token recognition error at: ''x'\n | self.a == 'x\n | ..........^\nERROR: <input>:1:13: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a == 'x\n | ............^"],
  ["{'a': }", "ERROR: <input>:1:7: Syntax error: mismatched input '}' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | {'a': }\n | ......^"],
  ["self.a ? 1", "ERROR: <input>:1:11: Syntax error: mismatched input '<EOF>' expecting ':'\n | self.a ? 1\n | ..........^"],
  ["!", "ERROR: <input>:1:2: Syntax error: extraneous input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | !\n | .^"],
  ["self.a +* 1", "ERROR: <input>:1:9: Syntax error: extraneous input '*' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a +* 1\n | ........^"],
  ["self.if == 1", "ERROR: <input>:1:5: undefined field 'if'\n | self.if == 1\n | ....^"],
  ["9223372036854775808 > 1", "ERROR: <input>:1:1: invalid int literal\n | 9223372036854775808 > 1\n | ^"],
  ["a == b", "ERROR: <input>:1:1: undeclared reference to 'a' (in container '')\n | a == b\n | ^\nERROR: <input>:1:6: undeclared reference to 'b' (in container '')\n | a == b\n | .....^"],
  // Recorded in the corpus of src/e2e/cel-expressions.test.ts (every issue, not only the first).
  ["size(1) + size(true) > 0", "ERROR: <input>:1:5: found no matching overload for 'size' applied to '(int)'\n | size(1) + size(true) > 0\n | ....^\nERROR: <input>:1:15: found no matching overload for 'size' applied to '(bool)'\n | size(1) + size(true) > 0\n | ..............^"],
  ["1 + 'a' == 2 && 2u + 1 == 3u && true + 1 == 2", "ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | 1 + 'a' == 2 && 2u + 1 == 3u && true + 1 == 2\n | ..^\nERROR: <input>:1:20: found no matching overload for '_+_' applied to '(uint, int)'\n | 1 + 'a' == 2 && 2u + 1 == 3u && true + 1 == 2\n | ...................^\nERROR: <input>:1:38: found no matching overload for '_+_' applied to '(bool, int)'\n | 1 + 'a' == 2 && 2u + 1 == 3u && true + 1 == 2\n | .....................................^"],
  ['1 == 1 ? null : "x"', "ERROR: <input>:1:8: found no matching overload for '_?_:_' applied to '(bool, null, string)'\n | 1 == 1 ? null : \"x\"\n | .......^"],
  ["authorizer.path('/healthz').check('get').allowed()", "ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer.path('/healthz').check('get').allowed()\n | ^"],
  ["[1].map(x) == [1]", "ERROR: <input>:1:8: undeclared reference to 'map' (in container '')\n | [1].map(x) == [1]\n | .......^\nERROR: <input>:1:9: undeclared reference to 'x' (in container '')\n | [1].map(x) == [1]\n | ........^"],
  ["'é' == 'é' &&", "ERROR: <input>:1:14: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 'é' == 'é' &&\n | .\uff0e......\uff0e....^"],
  ["1 = 2", "ERROR: <input>:1:3: Syntax error: token recognition error at: '= '\n | 1 = 2\n | ..^\nERROR: <input>:1:5: Syntax error: extraneous input '2' expecting <EOF>\n | 1 = 2\n | ....^"],
  ["'\\q' == 'q'", "ERROR: <input>:1:1: Syntax error: token recognition error at: ''\\q'\n | '\\q' == 'q'\n | ^\nERROR: <input>:1:10: Syntax error: extraneous input 'q' expecting <EOF>\n | '\\q' == 'q'\n | .........^\nERROR: <input>:1:11: Syntax error: token recognition error at: '''\n | '\\q' == 'q'\n | ..........^"],
  ["self.a == b && c", "ERROR: <input>:1:11: undeclared reference to 'b' (in container '')\n | self.a == b && c\n | ..........^\nERROR: <input>:1:16: undeclared reference to 'c' (in container '')\n | self.a == b && c\n | ...............^"],
];
const envA = newEnvironment([{ name: 'self', type: assignTypeNames(schemaDeclType({ type: 'object', properties: { a: { type: 'integer' } } })!, 'selfType0') }]);
for (const [expr, want] of kubeAnswers) {
  test(`compile error as kube-apiserver answered: ${expr}`, () => {
    assert.equal(compile(expr, envA).error?.detail, `compilation failed: ${want}`);
  });
}

for (const [expr, want] of compileErrors) {
  test(`compile error as kube words it: ${expr}`, () => {
    const r = compile(expr, env);
    assert.equal(r.error?.type, 'invalid');
    assert.equal(r.error?.detail, `compilation failed: ${want}`);
  });
}

const results: readonly (readonly [string, string, unknown])[] = [
  // [expression, output type, JSON of the value or {error}]
  ['self.replicas <= self.maxReplicas', 'bool', false],
  ['self.tags == oldSelf.tags', 'bool', true],
  ['self.items == oldSelf.items', 'bool', true],
  ['self == oldSelf', 'bool', true],
  ['self.items[0]', 'selfType0.items.@idx', { k: 'a', v: 1 }],
  ['self.m', 'map(string, string)', { a: 'b' }],
  ['self.sub.a', 'double', 1.5],
  ['self.replicas / 0', 'int', { error: 'division by zero' }],
  ['self.replicas % 0', 'int', { error: 'modulus by zero' }],
  ['self.m["zz"]', 'string', { error: 'no such key: zz' }],
  ['9223372036854775807 + 1', 'int', { error: 'integer overflow' }],
];

for (const [expr, type, want] of results) {
  test(`evaluates as kube does: ${expr}`, () => {
    const r = compile(expr, env);
    assert.equal(r.error, undefined);
    assert.equal(r.program?.outputType, type);
    const v = evaluate(r.program!, { self, oldSelf });
    if (v.error !== undefined) assert.deepEqual({ error: v.error.detail }, want);
    else assert.deepEqual(fromCelValue(v.value), want);
  });
}
