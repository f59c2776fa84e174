// kube's CEL costs: the static estimate a CRD rule is checked against, and the runtime cost an
// evaluation is charged. Expected runtime costs are kube's (k8s.io/apiextensions-apiserver@v0.36.3/
// pkg/apiserver/schema/cel/celcoststability_test.go); expected estimates are what kube-apiserver
// v1.36.3 answered for the same rules in a CRD.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assignTypeNames, AuthorizerType, authorizerValue, cachedPrograms, compile, compileCached, costErrorMessage, estimateCost, evaluate,
  evaluateAsync, newEnvironment, schemaDeclType,
  StaticEstimatedCostLimit, toCelValue, COST_LIMIT_EXCEEDED, type CelSchema,
} from './index.ts';

const str: CelSchema = { type: 'string' };
const int: CelSchema = { type: 'integer' };

function envFor(properties: Record<string, CelSchema>) {
  const t = assignTypeNames(schemaDeclType({ type: 'object', properties })!, 'selfType0');
  return { t, env: newEnvironment([{ name: 'self', type: t }, { name: 'oldSelf', type: t }]) };
}

test('estimated cost of nested comprehensions: kube refuses it by a factor of 2.6x', () => {
  const { env } = envFor({ tags: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 10 } } });
  const p = compile("self.tags.all(x, self.tags.all(y, self.tags.all(z, x + y + z != '')))", env).program!;
  const c = estimateCost(p);
  assert.equal(c.max, 26060603);
  assert.equal(costErrorMessage('estimated rule cost', c.max, StaticEstimatedCostLimit),
    'estimated rule cost exceeds budget by factor of 2.6x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)');
});

const overBudget: readonly string[] = [
  // literal lists have no declared element size: kube estimates these beyond 100x the limit
  "['a', 'b'].isSorted() == true", "['b', 'a'].min() == 'a'", "['x', 'y'].join() == 'xy'", '[[1, 2].slice(2, 1)].size() == 0',
];
for (const expr of overBudget) {
  test(`estimated cost beyond 100x the limit, as kube estimates it: ${expr}`, () => {
    const c = estimateCost(compile(expr, envFor({}).env).program!);
    assert.ok(c.max > 100 * StaticEstimatedCostLimit, String(c.max));
    assert.match(costErrorMessage('estimated rule cost', c.max, StaticEstimatedCostLimit), /factor of more than 100x/);
  });
}

test('cost messages word the factor as kube does', () => {
  assert.match(costErrorMessage('x', 11, 10), /factor of 1\.100000x/);
  assert.match(costErrorMessage('x', 25, 10), /factor of 2\.5x/);
  assert.match(costErrorMessage('x', 1001, 10), /factor of more than 100x/);
});

test('estimates follow the declared sizes', () => {
  const bounded = envFor({ s: { type: 'string', maxLength: 10 }, l: { type: 'array', maxItems: 10, items: int } }).env;
  const unbounded = envFor({ s: str, l: { type: 'array', items: int } }).env;
  const est = (e: string, env: typeof bounded): number => estimateCost(compile(e, env).program!).max;
  assert.equal(est('self.l.all(x, x > 0)', bounded), 3 + 10 * 5);
  assert.ok(est('self.l.all(x, x > 0)', unbounded) > 1_000_000);
  assert.ok(est("self.s.matches('^a+$')", bounded) < est("self.s.matches('^a+$')", unbounded));
  assert.equal(est('self.s == oldSelf.s', bounded), 4 + 4);
});

const runtime: readonly (readonly [string, Record<string, CelSchema>, unknown, Record<string, number>])[] = [
  ['list', { array: { type: 'array', items: int } }, { array: [1, 1, 2, 2, 3, 3, 4, 5] }, {
    '2 in self.array': 10, 'self.array.all(e, e > 0)': 43, 'self.array.exists(e, e > 2)': 36, 'self.array.exists_one(e, e > 4)': 22,
    '!self.array.all(e, e < 2)': 21, '!self.array.exists(e, e < 0)': 52, '!self.array.exists_one(e, e == 2)': 25,
    'size(self.array.filter(e, e%2 == 0)) == 3': 68, 'self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)': 194,
    'size(self.array) == 8': 4, 'self.array.all(i, e, e > 0)': 43, 'self.array.exists(i, e, e > 2)': 36, 'self.array.existsOne(i, e, e > 4)': 22,
    'self.array.transformList(i, e, e > 2, e * 2).size() > 0': 77, 'self.array.transformList(i, e, e * 2).size() > 0': 117,
  }],
  ['map', { val: { type: 'object', additionalProperties: int } }, { val: { b: 1, d: 2 } }, {
    "!('a' in self.val)": 4, "'b' in self.val": 3, '!has(self.val.a)': 3, 'has(self.val.b)': 2, 'self.val.all(k, self.val[k] > 0)': 17,
    '!self.val.exists(k, self.val[k] == 3)': 20, 'self.val.exists_one(k, self.val[k] == 2)': 14, 'size(self.val.filter(k, self.val[k] > 1)) == 1': 26,
    'self.val.all(k, v, v > 0)': 13, '!self.val.exists(k, v, v == 3)': 16, 'self.val.transformMap(k, v, v > 1, v + 1).size() == 1': 14,
    'self.val.transformMap(k, v, v + 1).size() == 2': 15, "self.val.transformMapEntry(k, v, {k + '2': v + 1}).size() == 2": 77,
  }],
  ['list map', {
    listMap: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: str, v: str, v2: str } } },
  }, { listMap: [{ k: 'a1', v: 'b1' }, { k: 'a2', v: 'b2' }, { k: 'a3', v: 'b3', v2: 'z' }] }, {
    'has(self.listMap[0].v)': 3, "self.listMap.all(m, m.k.startsWith('a'))": 21, "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')": 21, "self.listMap.exists(m, m.k.endsWith('1'))": 13,
    "self.listMap.exists_one(m, m.k == 'a3')": 15, "!self.listMap.exists(m, m.v == 'x')": 25, "self.listMap.map(m, m.v).exists(v, v == 'b1')": 55,
    "self.listMap.exists(m, m.v2 == 'z')": 24, "!self.listMap.all(m, m.v2 != 'z')": 22, 'self.listMap.transformList(i, m, m.v).size() == 3': 47,
  }],
  ['strings', { val1: str, val2: str }, { val1: 'Rook takes 👑', val2: 'Rook takes 👑' }, {
    "self.val1.startsWith('Rook')": 4, "!self.val1.startsWith('knight')": 5, "self.val1.matches('^[^0-9]*$')": 8, 'has(self.val1) && has(self.val2)': 2,
  }],
];
for (const [group, props, obj, cases] of runtime) {
  const { t, env } = envFor(props);
  const self = toCelValue(obj, t);
  for (const [expr, want] of Object.entries(cases)) {
    test(`runtime cost (${group}): ${expr} costs ${want}`, () => {
      const v = evaluate(compile(expr, env).program!, { self, oldSelf: self });
      assert.equal(v.error, undefined, v.error?.detail);
      assert.equal(v.cost, want);
    });
  }
}

test('an evaluation past its cost limit is cancelled with kube\'s message', () => {
  const { t, env } = envFor({ array: { type: 'array', items: int } });
  const self = toCelValue({ array: [1, 2, 3, 4, 5, 6, 7, 8] }, t);
  const p = compile('self.array.all(x, self.array.all(y, x + y > 0))', env).program!;
  const within = evaluate(p, { self, oldSelf: self }, { costLimit: 1000 });
  assert.equal(within.value, true);
  const over = evaluate(p, { self, oldSelf: self }, { costLimit: within.cost - 1 });
  assert.equal(over.error?.detail, COST_LIMIT_EXCEEDED);
  assert.equal(over.error?.detail, 'operation cancelled: actual cost limit exceeded');
  assert.equal(over.costLimitExceeded, true);
});

test('compiled programs are cached by environment and expression', () => {
  const { env } = envFor({ a: int });
  const before = cachedPrograms();
  const a = compileCached('self.a > 1', env);
  assert.equal(compileCached('self.a > 1', env), a);
  assert.equal(compileCached('self.a > 1', envFor({ a: int }).env), a);
  assert.notEqual(compileCached('self.a > 1', envFor({ a: { type: 'number' } }).env), a);
  assert.equal(cachedPrograms(), before + 2);
});

/** kube's estimates of a rule on a schema node (compilation_test.go TestCostEstimation): unbounded, and with a limit. */
const estimates: readonly (readonly [string, (max?: number) => CelSchema, string, number, number, number])[] = [
  ['number array', (m) => ({ type: 'array', items: { type: 'number' }, maxItems: m }), 'self.all(x, true)', 4718591, 10, 32],
  ['string array', (m) => ({ type: 'array', items: str, maxItems: m }), 'self.all(x, true)', 3145727, 20, 62],
  ['boolean array', (m) => ({ type: 'array', items: { type: 'boolean' }, maxItems: m }), 'self.all(x, true)', 1887437, 5, 17],
  ['array of arrays', (m) => ({ type: 'array', items: { type: 'array', items: { type: 'number' } }, maxItems: m }), 'self.all(x, true)', 3145727, 100, 302],
  ['array of objects', (m) => ({ type: 'array', maxItems: m, items: { type: 'object', required: ['required'], properties: { required: str, optional: str } } }), 'self.all(x, true)', 555128, 50, 152],
  ['map of numbers', (m) => ({ type: 'object', additionalProperties: { type: 'number' }, maxProperties: m }), 'self.all(x, true)', 1348169, 10, 32],
  ['map of strings', (m) => ({ type: 'object', additionalProperties: str, maxProperties: m }), 'self.all(x, true)', 1179647, 3, 11],
  ['map of booleans', (m) => ({ type: 'object', additionalProperties: { type: 'boolean' }, maxProperties: m }), 'self.all(x, true)', 943718, 100, 302],
  ['string contains', (m) => ({ type: 'string', maxLength: m }), "self.contains('test')", 314574, 10, 5],
  ['string startsWith', (m) => ({ type: 'string', maxLength: m }), "self.startsWith('test')", 2, 15, 2],
  ['string concat', (m) => ({ type: 'string', maxLength: m }), 'size(self + "hello") > size("hello")', 314578, 4, 7],
  ['index of numbers', (m) => ({ type: 'array', items: { type: 'number' }, maxItems: m }), 'self[1] == 0.0', 2, 5000, 2],
  ['index of strings', (m) => ({ type: 'array', items: str, maxItems: m }), 'self[1] == self[1]', 314577, 8, 314577],
  ['regex', (m) => ({ type: 'string', maxLength: m }), 'self.matches("x")', 314574, 50, 22],
  ['regex on a literal', (m) => ({ type: 'string', maxLength: m }), '"".matches("(((((((((())))))))))[0-9]")', 7, 10, 7],
  ['empty regex', (m) => ({ type: 'string', maxLength: m }), 'self.matches("")', 1, 100, 1],
  ['string maxLength zero', (m) => ({ type: 'string', maxLength: m }), 'self == "x"', 2, 0, 1],
  ['array maxItems zero', (m) => ({ type: 'array', items: { type: 'number' }, maxItems: m }), 'self[3] == 0.0', 2, 0, 2],
  ['map maxProperties zero', (m) => ({ type: 'object', additionalProperties: { type: 'number' }, maxProperties: m }), 'self["x"] == 0.0', 2, 0, 2],
  ['O(n^2) loop', (m) => ({ type: 'array', items: { type: 'number' }, maxItems: m }), 'self.all(x, self.all(y, true))', 0, 10, 352],
  ['O(n^3) loop', (m) => ({ type: 'array', items: { type: 'number' }, maxItems: m }), 'self.all(x, self.all(y, self.all(z, true)))', 0, 10, 3552],
];
for (const [name, gen, rule, unbounded, max, bounded] of estimates) {
  test(`estimated cost as kube's (${name}): ${rule}`, () => {
    const est = (schema: CelSchema): number => {
      const t = assignTypeNames(schemaDeclType(schema)!, 'selfType0');
      const r = compile(rule, newEnvironment([{ name: 'self', type: t }]));
      assert.equal(r.error, undefined, r.error?.detail);
      return estimateCost(r.program!).max;
    };
    if (unbounded > 0) assert.equal(est(gen()), unbounded);
    assert.equal(est(gen(max)), bounded);
  });
}

// kube charges every step of an evaluation against its limit, also those after an authorizer's
// answer; the same expression with a synchronous and an asynchronous authorizer costs the same.
{
  const authzEnv = newEnvironment([{ name: 'authorizer', type: AuthorizerType }]);
  const expr = "authorizer.path('/healthz').check('get').allowed() && [1, 2, 3, 4, 5].all(x, [1, 2, 3, 4, 5].all(y, x + y > 0))";
  const program = compile(expr, authzEnv).program!;
  const allow = { decision: 'allow' as const, reason: '' };
  const cases = [
    { name: 'synchronous authorizer', authorize: () => allow },
    { name: 'asynchronous authorizer', authorize: async () => allow },
  ];
  const costs: number[] = [];
  for (const c of cases) {
    test(`runtime cost after an authorizer check: ${c.name}`, async () => {
      const authorizer = authorizerValue({ name: 'u' }, { authorize: c.authorize });
      const free = await evaluateAsync(program, { authorizer });
      assert.equal(free.value, true);
      // the check alone costs 350000; the loops after it more than 100
      assert.ok(free.cost > 350_100, `cost ${free.cost}`);
      costs.push(free.cost);
      const limited = await evaluateAsync(program, { authorizer }, { costLimit: 350_100 });
      assert.deepEqual([limited.error?.detail, limited.costLimitExceeded], [COST_LIMIT_EXCEEDED, true]);
    });
  }
  test('runtime cost after an authorizer check: the same either way', () => {
    assert.equal(costs.length, 2);
    assert.equal(costs[0], costs[1]);
  });
}
