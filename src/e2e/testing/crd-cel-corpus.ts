// CRD validation rules (x-kubernetes-validations) for the CEL differential (src/e2e/crd-cel-validation.test.ts):
// CRDs whose rules kube refuses (compile errors, bad reason/fieldPath/message, oldSelf where no old
// value can be correlated, estimated cost over budget), and custom resources judged by rules at every
// level (root, spec, properties, list items, map values, map-list items), with messageExpression,
// reason, fieldPath, transition rules (oldSelf, optionalOldSelf), runtime errors, and ratcheting of
// unchanged invalid values, for CEL rules and for the OpenAPI schema alike.
// No Go counterpart: the e2e test corpus (cases written from apiextensions-apiserver's
// pkg/apiserver/schema/cel and pkg/apis/apiextensions/validation).
import { setTimeout as sleep } from 'node:timers/promises';
import type { RawRequest, RawResponse } from './https-client.ts';
import { patch, post, put, putBack, type Send, type ValidationCase } from './validation-differential.ts';

type Json = Record<string, unknown>;

export const GROUP = 'celrules.example.com';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
/** A guard against a hang while a CRD becomes served, not a timing assertion. */
const ATTEMPTS = 300;

const int = { type: 'integer' };
const str = { type: 'string' };
const rule = (r: string, extra: Json = {}): Json => ({ rule: r, ...extra });
const obj = (properties: Json, extra: Json = {}): Json => ({ type: 'object', properties, ...extra });
const rules = (...rs: Json[]): Json => ({ 'x-kubernetes-validations': rs });

export function crd(plural: string, kind: string, root: Json, opts: { status?: boolean } = {}): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP, scope: 'Namespaced',
      names: { plural, singular: plural.replace(/s$/, ''), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: root },
        ...(opts.status === true ? { subresources: { status: {} } } : {}) }],
    },
  };
}

/** The widget: rules at the root, on spec, its properties, list items, map values, map-list items and status. */
export const WIDGET_SCHEMA: Json = obj({
  spec: obj({
    replicas: int, maxReplicas: int, minReplicas: int, required: str, dup: str,
    name: { type: 'string', maxLength: 30, ...rules(rule("self.startsWith('w')", { messageExpression: "'name ' + self + ' must start with w'" })) },
    mode: { type: 'string', ...rules(rule('self == oldSelf', { message: 'mode is immutable' })) },
    divisor: { type: 'integer', ...rules(rule('100 / self > 1')) },
    flex: { 'x-kubernetes-int-or-string': true, ...rules(rule('self > 1')) },
    tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10, ...rules(rule('self.size() > 1', { message: 'tag too short' })) },
      ...rules(rule("self.all(t, t != 'bad')", { message: 'no bad tags' })) },
    ports: { type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
      items: obj({ name: { type: 'string', maxLength: 10 }, port: int }, { required: ['name'], ...rules(
        rule('self.port > 0', { message: 'port must be positive', fieldPath: '.port' }),
        rule('!has(oldSelf.port) || !has(self.port) || self.port >= oldSelf.port', { message: 'port may not decrease' })) }) },
    labels: { type: 'object', maxProperties: 10,
      additionalProperties: { type: 'string', maxLength: 10, ...rules(rule("self != 'x'", { message: 'label value x' })) },
      ...rules(rule('self.all(k, k.size() < 8)', { message: 'label keys too long' })) },
    limits: obj({ min: int, max: int }, rules(rule('!has(self.min) || !has(self.max) || self.min <= self.max', { message: 'max below min', fieldPath: '.max' }))),
    phase: { type: 'string', ...rules(rule("oldSelf.hasValue() ? (self == oldSelf.value() || self == 'Done') : self == 'New'",
      { optionalOldSelf: true, message: 'phase must start New and may only become Done' })) },
    expensive: { type: 'array', maxItems: 800, items: { type: 'string', maxLength: 5 }, ...rules(rule('self.all(x, self.all(y, x == y || true))')) },
  }, rules(
    rule('!has(self.replicas) || !has(self.maxReplicas) || self.replicas <= self.maxReplicas', { message: 'replicas must not exceed maxReplicas', fieldPath: '.replicas' }),
    rule('!has(self.minReplicas) || self.minReplicas >= 0', { messageExpression: "self.minReplicas < -1 ? 'minReplicas far below 0' : 'minReplicas is -1'", reason: 'FieldValueForbidden' }),
    rule("!has(self.required) || self.required != 'none'", { reason: 'FieldValueRequired', fieldPath: '.required', message: 'required must not be none' }),
    rule("!has(self.dup) || self.dup != 'twice'", { reason: 'FieldValueDuplicate' }),
    rule("!has(self.name) || self.name != 'wbadmsg'", { messageExpression: 'self.name + "\\n" + "x"', message: 'fallback message' }),
  )),
  status: obj({ phase: { type: 'string', ...rules(rule("self in ['Pending', 'Running']", { message: 'bad status phase' })) }, count: { type: 'integer', minimum: 0 } },
    rules(rule('!has(self.count) || self.count < 100', { message: 'count too high' }))),
}, rules(rule('!has(self.spec) || !has(self.spec.replicas) || self.spec.replicas < 50', { message: 'too many replicas (root)' })));

/** The gadget before and after its schema tightens: seeds stored under the loose schema test ratcheting. */
function gadgetSchema(tight: boolean): Json {
  const t = (extra: Json): Json => (tight ? extra : {});
  return obj({
    spec: obj({
      size: { type: 'integer', ...t({ maximum: 5 }) },
      count: { type: 'integer', ...t(rules(rule('self < 10', { message: 'count must be below 10' }))) },
      name: { type: 'string', ...t({ pattern: '^[a-z]+$' }) },
      other: str,
      list: { type: 'array', items: { type: 'string', ...t({ maxLength: 3 }) } },
      ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
        items: obj({ name: str, port: { type: 'integer', ...t({ maximum: 100 }) }, weight: { type: 'integer', ...t(rules(rule('self < 10', { message: 'weight must be below 10' }))) } },
          { required: ['name'] }) },
      nested: obj({ deep: obj({ value: { type: 'integer', ...t({ minimum: 0 }) }, note: str }) }),
    }),
  });
}

/** The thing: rules over kube's CEL libraries and types (timestamps, durations, quantities, URLs, IPs, lists, maps of objects, embedded resources, optionals). */
export const THING_SCHEMA: Json = obj({
  spec: obj({
    when: { type: 'string', format: 'date-time', ...rules(rule("self > timestamp('2020-01-01T00:00:00Z')", { message: 'too early' })) },
    dur: { type: 'string', format: 'duration', ...rules(rule("self < duration('1h')", { message: 'too long' })) },
    q: { type: 'string', maxLength: 20, ...rules(rule("isQuantity(self) && quantity(self).isLessThan(quantity('1Gi'))", { message: 'q too big' })) },
    email: { type: 'string', maxLength: 64, ...rules(rule("self.matches('^[a-z]+@[a-z]+\\\\.com$')", { message: 'bad email' })) },
    url: { type: 'string', maxLength: 100, ...rules(rule("isURL(self) && url(self).getScheme() == 'https'", { message: 'https only' })) },
    ip: { type: 'string', maxLength: 40, ...rules(rule("isIP(self) && ip(self).family() == 4", { message: 'IPv4 only' })) },
    words: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 5 },
      ...rules(rule('self.isSorted()', { message: 'words unsorted' }), rule('self.all(w, w.lowerAscii() == w)', { messageExpression: "'upper case in ' + self.join(',')" })) },
    pools: { type: 'object', maxProperties: 5, additionalProperties: obj({ a: int }, rules(rule('self.a > 0', { message: 'a must be positive', fieldPath: '.a' }))),
      ...rules(rule('self.all(k, self[k].a < 100)', { message: 'a below 100 everywhere' })) },
    embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true,
      ...rules(rule("self.kind == 'ConfigMap' && self.metadata.name.startsWith('cm-')", { message: 'only ConfigMaps named cm-' })) },
    opt: obj({ x: str }, rules(rule("self.?x.orValue('d') != 'bad'", { message: 'x is bad' }))),
    msgerr: { type: 'integer', ...rules(rule('self < 10', { message: 'msgerr fallback', messageExpression: "self > 100 ? 'big' : ['a'][1]" })) },
    sized: { type: 'string', maxLength: 10, ...rules(rule('size(self) >= 3', { message: 'at least 3' })) },
    defs: obj({ v: { type: 'integer', default: 50 } }, rules(rule('self.v < 10', { message: 'defaulted v' }))),
    nul: { type: 'string', nullable: true, ...rules(rule('self.size() > 3', { message: 'nul too short' })) },
  }),
}, rules(rule("self.metadata.name.startsWith('t')", { message: 'name must start with t' })));

/** Two rules on items of a bounded list, each within its own limits, together over the per-object runtime budget. */
const BUDGET_SCHEMA: Json = obj({
  spec: obj({ a: { type: 'array', maxItems: 20, items: obj({ l: { type: 'array', maxItems: 250, items: int } }, rules(
    rule('self.l.all(x, self.l.all(y, x >= 0 && y >= 0))', { message: 'r1' }),
    rule('self.l.all(x, self.l.all(y, x <= 1000 && y <= 1000))', { message: 'r2' }))) } }),
});

/** Two served versions whose rules differ: each request is judged by its own version's rules. */
function dualCRD(): Json {
  const c = crd(DUALS, 'Dual', {});
  const version = (name: string, max: number, storage: boolean): Json => ({ name, served: true, storage,
    schema: { openAPIV3Schema: obj({ spec: obj({ a: int }, rules(rule(`!has(self.a) || self.a < ${max}`, { message: `a below ${max}` }))) }) } });
  (c['spec'] as Json)['versions'] = [version('v1', 10, true), version('v2', 5, false)];
  return c;
}

export const WIDGETS = 'widgets';
export const GADGETS = 'gadgets';
export const THINGS = 'things';
export const BUDGETS = 'budgets';
export const DUALS = 'duals';
const collection = (plural: string, ns: string): string => `/apis/${GROUP}/v1/namespaces/${ns}/${plural}`;
const cr = (kind: string, name: string, spec: Json): Json => ({ apiVersion: `${GROUP}/v1`, kind, metadata: { name }, spec });
const widget = (name: string, spec: Json): Json => cr('Widget', name, spec);
const GADGET_SEED: Json = { size: 8, count: 20, name: 'ABC', other: 'a', list: ['long'], ports: [{ name: 'a', port: 200, weight: 50 }, { name: 'b', port: 1, weight: 1 }], nested: { deep: { value: -1, note: 'n' } } };

export function setup(): readonly RawRequest[] {
  return [post(CRDS, crd(WIDGETS, 'Widget', WIDGET_SCHEMA, { status: true })), post(CRDS, crd(GADGETS, 'Gadget', gadgetSchema(false))),
    post(CRDS, crd(THINGS, 'Thing', THING_SCHEMA)), post(CRDS, crd(BUDGETS, 'Budget', BUDGET_SCHEMA)), post(CRDS, dualCRD())];
}

async function until(what: string, attempt: () => Promise<boolean>): Promise<void> {
  for (let k = 0; k < ATTEMPTS; k++) {
    if (await attempt()) return;
    await sleep(100);
  }
  throw new Error(`${what}: never happened`);
}

/** Waits for both CRDs, stores the gadget seed under the loose schema, then tightens it and waits until that serves. */
export async function prepare(send: Send, ns: string): Promise<void> {
  const dry = (plural: string, body: Json): Promise<RawResponse> => send(post(`${collection(plural, ns)}?dryRun=All`, body));
  await until('widgets served', async () => (await dry(WIDGETS, widget('probe', {}))).status === 201);
  await until('gadgets served', async () => (await dry(GADGETS, cr('Gadget', 'probe', {}))).status === 201);
  await until('things served', async () => (await dry(THINGS, cr('Thing', 'tprobe', {}))).status === 201);
  await until('budgets served', async () => (await dry(BUDGETS, cr('Budget', 'probe', {}))).status === 201);
  await until('duals served', async () => (await send(post(`/apis/${GROUP}/v2/namespaces/${ns}/${DUALS}?dryRun=All`, { apiVersion: `${GROUP}/v2`, kind: 'Dual', metadata: { name: 'p' }, spec: {} }))).status === 201);
  const seeded = await send(post(collection(GADGETS, ns), cr('Gadget', 'seed', GADGET_SEED)));
  if (seeded.status !== 201 && seeded.status !== 409) throw new Error(`gadget seed: ${seeded.status} ${seeded.text}`);
  await until('gadgets tightened', async () => {
    const got = await send({ method: 'GET', path: `${CRDS}/${GADGETS}.${GROUP}` });
    const current = got.json() as Json;
    const next = crd(GADGETS, 'Gadget', gadgetSchema(true));
    next['metadata'] = { name: `${GADGETS}.${GROUP}`, resourceVersion: (current['metadata'] as Json)['resourceVersion'] };
    const r = await send(put(`${CRDS}/${GADGETS}.${GROUP}`, next));
    return r.status === 200;
  });
  await until('tightened gadget schema served', async () => (await dry(GADGETS, cr('Gadget', 'probe2', { size: 9 }))).status === 422);
}

// ---- CRDs refused (or accepted) for their rules: dry-run creates, nothing stored ----

interface CRDCase { readonly name: string; readonly spec: Json; readonly root?: Json; readonly version?: Json }

const list = (items: Json, extra: Json = {}): Json => ({ type: 'array', items, ...extra });
const CRD_CASES: readonly CRDCase[] = [
  { name: 'compile error: syntax', spec: obj({ a: int }, rules(rule('self.nonexistent((('))) },
  { name: 'compile error: undefined field', spec: obj({ a: int }, rules(rule('self.b == 1'))) },
  { name: 'compile error: no matching overload', spec: obj({ a: int }, rules(rule("self.a == 'x'"))) },
  { name: 'compile error: undeclared reference', spec: obj({ a: int }, rules(rule('other.a == 1'))) },
  { name: 'rule not a bool', spec: obj({ a: int }, rules(rule('self.a'))) },
  { name: 'rule empty', spec: obj({ a: int }, rules(rule('  '))) },
  { name: 'message only spaces', spec: obj({ a: int }, rules(rule('self.a > 0', { message: '  ' }))) },
  { name: 'message with a line break', spec: obj({ a: int }, rules(rule('self.a > 0', { message: 'a\nb' }))) },
  { name: 'multi-line rule without message', spec: obj({ a: int }, rules(rule('self.a > 0 &&\nself.a < 9'))) },
  { name: 'messageExpression only spaces', spec: obj({ a: int }, rules(rule('self.a > 0', { messageExpression: '  ' }))) },
  { name: 'messageExpression not a string', spec: obj({ a: int }, rules(rule('self.a > 0', { messageExpression: 'self.a' }))) },
  { name: 'messageExpression compile error', spec: obj({ a: int }, rules(rule('self.a > 0', { messageExpression: "'a' + self.zzz" }))) },
  { name: 'reason unknown', spec: obj({ a: int }, rules(rule('self.a > 0', { reason: 'FieldValueBogus' }))) },
  { name: 'fieldPath not a field', spec: obj({ a: int }, rules(rule('self.a > 0', { fieldPath: '.b' }))) },
  { name: 'fieldPath without a dot', spec: obj({ a: int }, rules(rule('self.a > 0', { fieldPath: 'a' }))) },
  { name: 'fieldPath only spaces', spec: obj({ a: int }, rules(rule('self.a > 0', { fieldPath: '  ' }))) },
  { name: 'fieldPath with a line break', spec: obj({ a: int }, rules(rule('self.a > 0', { fieldPath: '.a\n' }))) },
  { name: 'fieldPath into a map by key', spec: obj({ m: { type: 'object', additionalProperties: int } }, rules(rule('true', { fieldPath: ".m['k']" }))) },
  { name: 'fieldPath into a list', spec: obj({ l: list(int) }, rules(rule('true', { fieldPath: '.l[0]' }))) },
  { name: 'fieldPath quoted property', spec: obj({ 'a.b': int }, rules(rule('true', { fieldPath: "['a.b']" }))) },
  { name: 'oldSelf in set-list items', spec: obj({ s: list({ type: 'string', ...rules(rule('self == oldSelf')) }, { 'x-kubernetes-list-type': 'set' }) }) },
  { name: 'oldSelf in atomic-list items', spec: obj({ s: list(obj({ a: int }, rules(rule('self == oldSelf')))) }) },
  { name: 'oldSelf under an atomic map', spec: obj({ m: obj({ a: { type: 'integer', ...rules(rule('self == oldSelf')) } }, { 'x-kubernetes-map-type': 'atomic' }) }) },
  { name: 'oldSelf in map-list items is fine', spec: obj({ s: list(obj({ k: str }, { required: ['k'], ...rules(rule('self == oldSelf')) }), { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] }) }) },
  { name: 'optionalOldSelf without oldSelf', spec: obj({ a: int }, rules(rule('self.a > 0', { optionalOldSelf: true }))) },
  { name: 'optionalOldSelf false without oldSelf', spec: obj({ a: int }, rules(rule('self.a > 0', { optionalOldSelf: false }))) },
  { name: 'oldSelf not optional used as optional', spec: obj({ a: int }, rules(rule('oldSelf.hasValue()'))) },
  { name: 'cost over budget: unbounded nested loops', spec: obj({ l: list(str) }, rules(rule('self.l.all(x, self.l.all(y, x == y))'))) },
  { name: 'cost over budget: string ops on unbounded list', spec: obj({ l: list(str) }, rules(rule("self.l.all(x, x.contains('a'))"))) },
  { name: 'cost within budget: bounded list', spec: obj({ l: list({ type: 'string', maxLength: 10 }, { maxItems: 10 }) }, rules(rule("self.l.all(x, x.contains('a'))"))) },
  { name: 'cost over budget: rule on items of unbounded lists', spec: obj({ l: list(list({ type: 'string', ...rules(rule("self.contains('a')")) })) }) },
  { name: 'cost over budget: messageExpression', spec: obj({ l: list(str, { maxItems: 10 }) }, rules(rule('true', { messageExpression: "self.l.map(x, self.l.map(y, x + y)).map(z, z.join(',')).join(',') + string(self.l)" }))) },
  { name: 'cost over budget: string() in messageExpression', spec: obj({ a: int }, rules(rule('self.a > 0', { messageExpression: "'a is ' + string(self.a)" }))) },
  // Each rule within its own limit, together over the CRD's; distinct costs make the four named deterministic.
  { name: 'total cost over the CRD budget', spec: obj(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`l${i}`,
    list({ type: 'string', maxLength: 64 }, { maxItems: 500 + 5 * i, ...rules(rule('self.all(x, self.all(y, x == y))')) })]))) },
  { name: 'rule on a schema with errors is not compiled', spec: obj({ a: rules(rule('self.nonexistent(((')) }) },
  { name: 'rules inside allOf', spec: obj({ a: { type: 'integer', allOf: [rules(rule('self > 0'))] } }) },
  { name: 'rule on metadata at the root', spec: obj({ a: int }), root: rules(rule("self.metadata.name.startsWith('a')")) },
  { name: 'rule on metadata labels at the root', spec: obj({ a: int }), root: rules(rule("self.metadata.labels['x'] == 'y'")) },
  { name: 'reserved property name escaped', spec: obj({ namespace: str, 'x-y': str }, rules(rule("self.__namespace__ == 'a' && self.x__dash__y == 'b'"))) },
  { name: 'rule on an object keeping unknown fields', spec: obj({ free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, ...rules(rule('has(self.x)')) } }) },
  { name: 'rule on an embedded resource', spec: obj({ e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true,
    ...rules(rule("self.apiVersion == 'v1' && self.metadata.name != '' && self.metadata.namespace == ''")) } }) },
  { name: 'rule on int-or-string compared to a string', spec: obj({ p: { 'x-kubernetes-int-or-string': true, ...rules(rule("self == 'a' || self == 1")) } }) },
  { name: 'rule with a two-variable comprehension', spec: obj({ m: { type: 'object', maxProperties: 5, additionalProperties: { type: 'string', maxLength: 5 },
    ...rules(rule('self.all(k, v, k != v)')) } }) },
  { name: 'rule on a map of lists with oldSelf', spec: obj({ m: { type: 'object', maxProperties: 5, additionalProperties: { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 3 } },
    ...rules(rule('self == oldSelf')) } }) },
  { name: 'default breaking its own rule', spec: obj({ a: { type: 'integer', default: 5, ...rules(rule('self < 3', { message: 'a below 3' })) } }) },
  { name: 'default breaking a rule below it', spec: obj({ o: { type: 'object', default: { b: 7 }, properties: { b: { type: 'integer', ...rules(rule('self < 3')) } } } }) },
  { name: 'default meeting a transition rule', spec: obj({ a: { type: 'integer', default: 5, ...rules(rule('self == oldSelf')) } }) },
  // Selectable fields resolve with the same field paths as rules (kube's ValidFieldPath, no array notation).
  { name: 'selectable fields: valid', spec: obj({ color: str, size: int, on: { type: 'boolean' } }), version: { selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }, { jsonPath: '.spec.on' }] } },
  { name: 'selectable fields: bad paths', spec: obj({ color: str, tags: { type: 'array', items: str }, m: { type: 'object', additionalProperties: str } }),
    version: { selectableFields: [{ jsonPath: 'spec.color' }, { jsonPath: '.spec.nope' }, { jsonPath: '.spec.tags' }, { jsonPath: ".spec['color']" }, { jsonPath: '.metadata.name' }, { jsonPath: '.spec.m.k' }, { jsonPath: '.spec.color' }, { jsonPath: '' }] } },
  { name: 'selectable fields: more than 8', spec: obj(Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`f${i}`, str]))),
    version: { selectableFields: Array.from({ length: 9 }, (_, i) => ({ jsonPath: `.spec.f${i}` })) } },
  { name: 'valid rules of every kind', spec: obj({ a: int, s: str, q: { 'x-kubernetes-int-or-string': true } }, rules(
    rule("self.a > 0 && self.s.matches('^[a-z]+$') && quantity('1Gi').isGreaterThan(quantity('1Mi'))", { message: 'm', reason: 'FieldValueForbidden', fieldPath: '.a' }),
    rule('self.a >= oldSelf.a', { messageExpression: "oldSelf.a > 5 ? 'a was big' : 'a was small'" }),
    rule("isURL('https://x') && ip('10.0.0.1').family() == 4 && cidr('10.0.0.0/8').containsIP('10.1.2.3')"))) },
];

function crdCase(c: CRDCase): ValidationCase {
  return {
    name: `crd: ${c.name}`,
    requests: (name) => {
      const plural = `${name}s`;
      const kind = name.replace(/-/g, '').replace(/^./, (ch) => ch.toUpperCase());
      const body = crd(plural, kind, { type: 'object', properties: { spec: c.spec }, ...(c.root ?? {}) });
      const versions = (body['spec'] as { versions: Json[] }).versions;
      if (c.version !== undefined) versions[0] = { ...versions[0], ...c.version };
      return [post(`${CRDS}?dryRun=All`, body)];
    },
  };
}

// ---- widgets: creates and updates judged by the rules ----

const wcol = (ns: string): string => collection(WIDGETS, ns);
const createW = (spec: Json): ValidationCase['requests'] => (name, ns) => [post(wcol(ns), widget(name, spec))];
const updateW = (spec: Json, change: (spec: Json) => void): ValidationCase['requests'] => (name, ns) =>
  [post(wcol(ns), widget(name, spec)), putBack(`${wcol(ns)}/${name}`, (o) => change(o['spec'] as Json))];
const statusW = (status: Json): ValidationCase['requests'] => (name, ns) =>
  [post(wcol(ns), widget(name, { name: 'w1' })), putBack(`${wcol(ns)}/${name}/status`, (o) => { o['status'] = status; })];

const WIDGET_CASES: readonly { name: string; requests: ValidationCase['requests'] }[] = [
  { name: 'valid widget', requests: createW({ replicas: 1, maxReplicas: 2, name: 'wx', tags: ['ab'], labels: { a: 'b' }, phase: 'New', ports: [{ name: 'p', port: 1 }] }) },
  { name: 'spec rule with fieldPath', requests: createW({ replicas: 3, maxReplicas: 2 }) },
  { name: 'root rule', requests: createW({ replicas: 60 }) },
  { name: 'root and spec rules both fail', requests: createW({ replicas: 60, maxReplicas: 2 }) },
  { name: 'messageExpression with reason Forbidden', requests: createW({ minReplicas: -2 }) },
  { name: 'reason Required with fieldPath', requests: createW({ required: 'none' }) },
  { name: 'reason Duplicate', requests: createW({ dup: 'twice' }) },
  { name: 'messageExpression of a string property', requests: createW({ name: 'abc' }) },
  { name: 'messageExpression with a line break falls back', requests: createW({ name: 'wbadmsg' }) },
  { name: 'runtime error: division by zero', requests: createW({ divisor: 0 }) },
  { name: 'int-or-string: int passes', requests: createW({ flex: 5 }) },
  { name: 'int-or-string: string has no overload', requests: createW({ flex: 'a' }) },
  { name: 'list rule', requests: createW({ tags: ['ok', 'bad'] }) },
  { name: 'list item rule', requests: createW({ tags: ['ok', 'x', 'y'] }) },
  { name: 'map-list item rule with fieldPath', requests: createW({ ports: [{ name: 'a', port: 1 }, { name: 'b', port: -1 }] }) },
  { name: 'map rule on keys', requests: createW({ labels: { longlabelkey: 'v' } }) },
  { name: 'map value rule', requests: createW({ labels: { a: 'x', b: 'y', c: 'x' } }) },
  { name: 'object rule with fieldPath', requests: createW({ limits: { min: 5, max: 1 } }) },
  { name: 'optionalOldSelf on create', requests: createW({ phase: 'Other' }) },
  { name: 'optionalOldSelf on create: allowed value', requests: createW({ phase: 'New' }) },
  { name: 'transition rule not run on create', requests: createW({ mode: 'a' }) },
  { name: 'blocking schema error skips rules', requests: createW({ name: 'a'.repeat(31), replicas: 3, maxReplicas: 1 }) },
  { name: 'non-blocking schema error keeps rules', requests: createW({ replicas: 3, maxReplicas: 1, tags: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'] }) },
  { name: 'wrong type blocks rules', requests: createW({ replicas: 'x', maxReplicas: 1, minReplicas: -1 }) },
  { name: 'too long annotations block rules', requests: (name, ns) =>
    [post(wcol(ns), { ...widget(name, { replicas: 3, maxReplicas: 1 }), metadata: { name, annotations: { a: 'x'.repeat(262145) } } })] },
  { name: 'per-call cost limit exceeded', requests: createW({ expensive: Array.from({ length: 800 }, (_, i) => `s${i % 1000}`) }) },
  { name: 'update: too long annotations block rules', requests: (name, ns) => [post(wcol(ns), widget(name, {})),
    putBack(`${wcol(ns)}/${name}`, (o) => { (o['metadata'] as Json)['annotations'] = { a: 'x'.repeat(262145) }; (o['spec'] as Json)['replicas'] = 60; })] },
  { name: 'update: transition rule refuses a change', requests: updateW({ mode: 'a' }, (s) => { s['mode'] = 'b'; }) },
  { name: 'update: transition rule allows no change', requests: updateW({ mode: 'a' }, (s) => { s['replicas'] = 1; }) },
  { name: 'update: transition rule with a new value', requests: updateW({}, (s) => { s['mode'] = 'b'; }) },
  { name: 'update: map-list item transition by key', requests: updateW({ ports: [{ name: 'a', port: 5 }, { name: 'b', port: 5 }] },
    (s) => { s['ports'] = [{ name: 'b', port: 6 }, { name: 'a', port: 4 }]; }) },
  { name: 'update: map-list new item has no oldSelf', requests: updateW({ ports: [{ name: 'a', port: 5 }] },
    (s) => { s['ports'] = [{ name: 'a', port: 5 }, { name: 'c', port: 1 }]; }) },
  { name: 'update: optionalOldSelf allows Done', requests: updateW({ phase: 'New' }, (s) => { s['phase'] = 'Done'; }) },
  { name: 'update: optionalOldSelf refuses Other', requests: updateW({ phase: 'New' }, (s) => { s['phase'] = 'Other'; }) },
  { name: 'update: oldSelf messageExpression', requests: updateW({ mode: 'a', replicas: 1, maxReplicas: 1 }, (s) => { s['mode'] = 'c'; s['replicas'] = 2; }) },
  { name: 'patch: rule applies to the patched object', requests: (name, ns) =>
    [post(wcol(ns), widget(name, { replicas: 1, maxReplicas: 2 })), patch(`${wcol(ns)}/${name}`, { spec: { replicas: 5 } })] },
  { name: 'apply: rule applies to the applied object', requests: (name, ns) =>
    [patch(`${wcol(ns)}/${name}?fieldManager=t`, widget(name, { replicas: 5, maxReplicas: 1 }), 'application/apply-patch+yaml')] },
  { name: 'status: status rule', requests: statusW({ phase: 'Bogus' }) },
  { name: 'status: status object rule and schema', requests: statusW({ phase: 'Running', count: 150 }) },
  { name: 'status: valid status', requests: statusW({ phase: 'Running', count: 5 }) },
  { name: 'status: negative count blocks nothing', requests: statusW({ phase: 'Bogus', count: -1 }) },
];

// ---- things: rules over kube's libraries and types ----

const createT = (spec: Json, name?: string): ValidationCase['requests'] => (n, ns) => [post(collection(THINGS, ns), cr('Thing', name ?? `t${n}`, spec))];
const THING_CASES: readonly { name: string; requests: ValidationCase['requests'] }[] = [
  { name: 'valid thing', requests: createT({ when: '2024-05-01T10:00:00Z', dur: '30m', q: '500Mi', email: 'a@b.com', url: 'https://x.io/p', ip: '10.1.2.3',
    words: ['a', 'b'], pools: { x: { a: 5 } }, embedded: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-1' } }, opt: {}, msgerr: 1, sized: 'abc' }) },
  { name: 'root rule on metadata.name', requests: createT({}, 'xthing') },
  { name: 'timestamp too early', requests: createT({ when: '2019-05-01T10:00:00Z' }) },
  { name: 'duration too long', requests: createT({ dur: '2h' }) },
  { name: 'quantity too big', requests: createT({ q: '2Gi' }) },
  { name: 'not a quantity', requests: createT({ q: 'lots' }) },
  { name: 'regex', requests: createT({ email: 'A@b.com' }) },
  { name: 'url scheme', requests: createT({ url: 'http://x.io' }) },
  { name: 'IPv6 refused', requests: createT({ ip: '::1' }) },
  { name: 'list unsorted and upper case', requests: createT({ words: ['b', 'A'] }) },
  { name: 'map of objects: value rule with fieldPath and map rule', requests: createT({ pools: { x: { a: 0 }, y: { a: 200 } } }) },
  { name: 'embedded resource rule', requests: createT({ embedded: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } } }) },
  { name: 'optional field chaining', requests: createT({ opt: { x: 'bad' } }) },
  { name: 'messageExpression runtime error falls back to message', requests: createT({ msgerr: 50 }) },
  { name: 'messageExpression result used', requests: createT({ msgerr: 500 }) },
  { name: 'string size counts characters', requests: createT({ sized: 'éé' }) },
  { name: 'rules see defaults', requests: createT({ defs: {} }) },
  { name: 'rules skip null values', requests: createT({ nul: null }) },
  { name: 'rules run on non-null nullable values', requests: createT({ nul: 'ab' }) },
];

// ---- gadgets: a seed stored under a looser schema; updates ratchet what they leave unchanged ----

const gpath = (ns: string): string => `${collection(GADGETS, ns)}/seed`;
const ratchet = (change: (spec: Json) => void): ValidationCase['requests'] => (_name, ns) =>
  [{ method: 'GET', path: gpath(ns) }, putBack(`${gpath(ns)}?dryRun=All`, (o) => change(o['spec'] as Json))];

const BUDGET_CASES: readonly { name: string; requests: ValidationCase['requests'] }[] = [
  { name: 'within the budget', requests: (name, ns) => [post(collection(BUDGETS, ns), cr('Budget', name, { a: [{ l: [1, 2, 3] }] }))] },
  { name: 'runtime budget exhausted', requests: (name, ns) =>
    [post(collection(BUDGETS, ns), cr('Budget', name, { a: Array.from({ length: 20 }, () => ({ l: Array.from({ length: 250 }, () => 0) })) }))] },
];

const dual = (version: string, a: number): ValidationCase['requests'] => (name, ns) =>
  [post(`/apis/${GROUP}/${version}/namespaces/${ns}/${DUALS}`, { apiVersion: `${GROUP}/${version}`, kind: 'Dual', metadata: { name }, spec: { a } })];
const DUAL_CASES: readonly { name: string; requests: ValidationCase['requests'] }[] = [
  { name: 'v1 rules for a v1 request', requests: dual('v1', 7) },
  { name: 'v2 rules for a v2 request', requests: dual('v2', 7) },
  { name: 'v1 refuses what v1 forbids', requests: dual('v1', 12) },
];

const RATCHET_CASES: readonly { name: string; requests: ValidationCase['requests'] }[] = [
  { name: 'unchanged invalid values, another field changed', requests: ratchet((s) => { s['other'] = 'b'; }) },
  { name: 'schema: invalid value changed to another invalid value', requests: ratchet((s) => { s['size'] = 9; }) },
  { name: 'schema: invalid value made valid', requests: ratchet((s) => { s['size'] = 1; }) },
  { name: 'schema: pattern, changed', requests: ratchet((s) => { s['name'] = 'XYZ'; }) },
  { name: 'rule: invalid value changed to another invalid value', requests: ratchet((s) => { s['count'] = 30; }) },
  { name: 'schema: atomic list changed keeps its invalid item', requests: ratchet((s) => { s['list'] = ['long', 'ok']; }) },
  { name: 'schema: map-list other item changed', requests: ratchet((s) => { s['ports'] = [{ name: 'a', port: 200, weight: 50 }, { name: 'b', port: 2, weight: 1 }]; }) },
  { name: 'schema: map-list invalid item changed', requests: ratchet((s) => { s['ports'] = [{ name: 'a', port: 300, weight: 50 }, { name: 'b', port: 1, weight: 1 }]; }) },
  { name: 'rule: map-list invalid item changed', requests: ratchet((s) => { s['ports'] = [{ name: 'a', port: 200, weight: 60 }, { name: 'b', port: 1, weight: 1 }]; }) },
  { name: 'schema: map-list items reordered', requests: ratchet((s) => { s['ports'] = [{ name: 'b', port: 1, weight: 1 }, { name: 'a', port: 200, weight: 50 }]; }) },
  { name: 'schema: nested sibling changed', requests: ratchet((s) => { (s['nested'] as { deep: Json }).deep['note'] = 'm'; }) },
  { name: 'schema: nested invalid value changed', requests: ratchet((s) => { (s['nested'] as { deep: Json }).deep['value'] = -2; }) },
  { name: 'merge patch of another field', requests: (_name, ns) => [patch(`${gpath(ns)}?dryRun=All`, { spec: { other: 'z' } })] },
];

export const CASES: readonly ValidationCase[] = [
  ...CRD_CASES.map(crdCase),
  ...WIDGET_CASES.map((c) => ({ name: `widget: ${c.name}`, requests: c.requests })),
  ...RATCHET_CASES.map((c) => ({ name: `ratcheting: ${c.name}`, requests: c.requests })),
  ...THING_CASES.map((c) => ({ name: `thing: ${c.name}`, requests: c.requests })),
  ...BUDGET_CASES.map((c) => ({ name: `budget: ${c.name}`, requests: c.requests })),
  ...DUAL_CASES.map((c) => ({ name: `versions: ${c.name}`, requests: c.requests })),
];
