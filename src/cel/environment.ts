// The CEL environment of kube-apiserver v1.36 on @marcbachmann/cel-js: the standard library and
// macros, optional types, kube's extension libraries (registered once in a base environment), and
// per use the declared variables with their types from schemas. Each object type of a schema becomes
// a library type with a class of its own; equality of objects and of set/map lists is registered per
// type, because kube compares those by content and without regard to order.
// Go counterparts: k8s.io/apiserver/pkg/cel/environment/base.go, k8s.io/apiserver/pkg/cel/types.go.
import { Environment } from '@marcbachmann/cel-js';
import { registerLibraries } from './library/index.ts';
import { registerPatchTypes } from './mutation-types.ts';
import { celEquals, classOf, isNullObject } from './values.ts';
import { objectTypesOf, typeKey, type DeclType, type ListDeclType } from './types.ts';

/** A variable an expression may use: `self`, `oldSelf`, `object`, `request`, `params`… */
export interface VariableDecl {
  readonly name: string;
  readonly type: DeclType;
  /** Declared as optional_type(type) (a CRD rule's oldSelf with optionalOldSelf); bind optionalOf/optionalNone values. */
  readonly optional?: boolean;
}

export interface CelEnvironment {
  /** Identifies the environment for the program cache: equal keys compile equally. */
  readonly key: string;
  readonly variables: ReadonlyMap<string, DeclType>;
  /** The library environment (internal to src/cel). */
  readonly lib: Environment;
}

/** The type name the library uses for a DeclType. */
export function libTypeName(t: DeclType): string {
  switch (t.kind) {
    case 'simple':
      switch (t.name) {
        case 'duration': return 'google.protobuf.Duration';
        case 'date':
        case 'timestamp': return 'google.protobuf.Timestamp';
        case 'any': return 'dyn';
        case 'null_type': return 'null';
        case 'quantity': return 'kubernetes.Quantity';
        case 'authorizer': return 'kubernetes.authorization.Authorizer';
        default: return t.name;
      }
    case 'list': return `list<${libTypeName(t.elem)}>`;
    case 'map': return `map<${libTypeName(t.key)}, ${libTypeName(t.value)}>`;
    case 'object': return libObjectName(t.name);
  }
}

/** The library's name of a kube object type: it does not take `@`, so `x.@idx` is `x.__idx__`. */
export const libObjectName = (name: string): string => name.replace(/@(idx|elem)\b/g, '__$1__');

/**
 * The library's parser limits, opened up to cel-go's: kube bounds expressions by their size and cost,
 * not by list or map literal lengths; nesting stops at cel-go's recursion limit (250).
 */
const OPTIONS = {
  enableOptionalTypes: true,
  homogeneousAggregateLiterals: true,
  limits: { maxAstNodes: 1_000_000, maxDepth: 250, maxListElements: 1_000_000, maxMapEntries: 1_000_000, maxCallArguments: 10_000 },
} as const;

let base: Environment | undefined;
let functionNames: ReadonlySet<string> | undefined;

/**
 * Library functions kube's environment does not have (cel-go reports them as undeclared), and the
 * macros the library also declares as functions: in cel-go a macro called with another number of
 * arguments is a call of an undeclared function.
 */
const NOT_IN_KUBE = new Set(['at', 'base64', 'hex', 'json', 'bind',
  'has', 'all', 'exists', 'exists_one', 'existsOne', 'map', 'filter', 'optMap', 'optFlatMap', 'transformList', 'transformMap', 'transformMapEntry']);

/** Whether kube's environment has a function (any overload) of this name. */
export function isKubeFunction(name: string): boolean {
  // JSONPatch's field checks (registered per environment, not on the base).
  if (name.startsWith('__jsonpatch_field_')) return true;
  functionNames ??= new Set(baseEnvironment().getDefinitions().functions.map((f) => f.name).filter((n) => !NOT_IN_KUBE.has(n)));
  return functionNames.has(name);
}

/** kube's v1.36 base environment: standard library, optional types, kube's libraries. */
export function baseEnvironment(): Environment {
  if (base === undefined) {
    const env = new Environment(OPTIONS);
    registerLibraries(env);
    base = env;
  }
  return base;
}

/** Every list type under `t` with x-kubernetes-list-type map (their equality is by key). */
function mapLists(t: DeclType, out: ListDeclType[] = []): ListDeclType[] {
  switch (t.kind) {
    case 'list':
      if (t.listType === 'map' && t.elem.kind === 'object') out.push(t);
      mapLists(t.elem, out);
      break;
    case 'map': mapLists(t.value, out); break;
    case 'object': for (const f of t.fields.values()) mapLists(f.type, out); break;
    case 'simple': break;
  }
  return out;
}

/**
 * The environment with the base libraries and `variables`; equal declarations (by structure) give the
 * same environment. Object types must carry unique path names (assignTypeNames); two object types of
 * the same name in one environment are rejected with an Error (a programming error, not a user one).
 */
export function newEnvironment(variables: readonly VariableDecl[], opts: EnvironmentOptions = {}): CelEnvironment {
  let key = variables.map((v) => `${v.name}:${v.optional === true ? '?' : ''}${typeKey(v.type)}`).join(';');
  if (opts.patchTypes !== undefined) key += `|patch:${[...opts.patchTypes].sort().join(',')}`;
  const cached = envCache.get(key);
  if (cached !== undefined) return cached;
  const env = buildEnvironment(key, variables, opts);
  if (envCache.size >= MAX_ENVIRONMENTS) envCache.delete(envCache.keys().next().value!);
  envCache.set(key, env);
  return env;
}

export interface EnvironmentOptions {
  /**
   * kube's HasPatchTypes (MutatingAdmissionPolicy mutations): JSONPatch, jsonpatch.escapeKey and
   * the constructors of these Object type names (those the expression constructs).
   */
  readonly patchTypes?: readonly string[] | undefined;
}

/** Environments by key: equal declarations share one (and its registered types). */
const envCache = new Map<string, CelEnvironment>();
const MAX_ENVIRONMENTS = 500;

function buildEnvironment(key: string, variables: readonly VariableDecl[], opts: EnvironmentOptions): CelEnvironment {
  const lib = baseEnvironment().clone(OPTIONS);
  if (opts.patchTypes !== undefined) registerPatchTypes(lib, opts.patchTypes);
  const objects = new Map<string, DeclType>();
  for (const v of variables) for (const [name, t] of objectTypesOf(v.type)) objects.set(name, t);
  // Fields name their types, so register the innermost first.
  for (const t of [...objects.values()].reverse()) {
    if (t.kind !== 'object') continue;
    const fields: Record<string, string> = {};
    for (const f of t.fields.values()) fields[f.name] = libTypeName(f.type);
    const name = libObjectName(t.name);
    lib.registerType(name, { ctor: classOf(t), fields });
    lib.registerOperator(`${name} == ${name}`, (a: unknown, b: unknown) => celEquals(a, b));
    // Object (message) types are nullable in cel-go: `namespaceObject == null` type-checks.
    lib.registerOperator(`${name} == null`, (a: unknown, b: unknown) => isNullObject(a) && isNullObject(b));
  }
  const seen = new Set<string>();
  for (const v of variables) {
    for (const l of mapLists(v.type)) {
      const name = libTypeName(l);
      if (seen.has(name)) continue;
      seen.add(name);
      lib.registerOperator(`${name} == ${name}`, (a: unknown, b: unknown) => celEquals(a, b));
    }
    lib.registerVariable(v.name, v.optional === true ? `optional<${libTypeName(v.type)}>` : libTypeName(v.type));
  }
  return {
    key,
    variables: new Map(variables.map((v) => [v.name, v.type])),
    lib,
  };
}
