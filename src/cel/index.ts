// src/cel: the CEL environment of kube-apiserver v1.36, on @marcbachmann/cel-js.
//
// FIRST USABLE CUT (issue 15): compile / type-check / evaluate with declared variables, types from
// structural schemas, kube-worded errors. Libraries, cost and the cache follow on the h-cel branch
// with the same API; merge h-cel again to get them.
//
// Usage (CRD validation rule on a schema node):
//   const t = assignTypeNames(schemaDeclType(schema, isRoot)!, 'selfType0');
//   const env = newEnvironment([{ name: 'self', type: t }, { name: 'oldSelf', type: t }]);
//   const r = compile('self.replicas <= self.maxReplicas', env);
//   if (r.error) → 422 cause: r.error.detail ('compilation failed: ERROR: <input>:1:6: …')
//   r.program.outputType === 'bool' else kube's 'cel expression must evaluate to a bool' (caller's text)
//   const self = toCelValue(json, t);                       // once per object, shared by its rules
//   const v = evaluate(r.program, { self }, { costLimit: PerCallLimit });
//   v.error?.detail is cel-go's runtime text ('no such key: x'); v.value is a CEL value
//   (bigint for int, CelObject for objects, Map for maps); fromCelValue(v.value) gives JSON.
//
// API
// - Types: DeclType (types.ts) with IntType, StringType, … listType/mapType/objectType; schemaDeclType
//   (schema.ts) from an OpenAPI v3 structural schema (CelSchema); assignTypeNames gives object types
//   kube's path names; celTypeName prints a type as cel-go does; escapeName/unescapeName for property
//   names (`__dash__`, `__dot__`, `__slash__`, `__underscores__`, `__if__`…).
// - Environments: newEnvironment(variables) → CelEnvironment (base libraries + variables).
// - compile(expression, env) → {program} | {error: CelError}. Never throws for bad expressions.
// - evaluate(program, activation, {costLimit}) → {value, cost} | {error, cost}. Never throws.
// - Values: toCelValue(json, type), dynToCel(json) for untyped data, fromCelValue(value) → JSON.
// - Limits: PerCallLimit, RuntimeCELCostBudget, RuntimeCELCostBudgetMatchConditions,
//   StaticEstimatedCostLimit, StaticEstimatedCRDCostLimit, MaxRequestSizeBytes (limits.ts).
// Errors: CelError {type: 'invalid' | 'required' | 'internal', detail} with kube's exact text.
export { compile, evaluate, evaluateAsync, COMPILATION_FAILED } from './compile.ts';
export { compileCached, cachedPrograms } from './cache.ts';
export { estimateCost, costErrorMessage } from './cost-estimate.ts';
export type { Estimate } from './cost-estimate.ts';
export { COST_LIMIT_EXCEEDED } from './cost-runtime.ts';
export type { CompileResult, EvalOptions, EvalResult, Program } from './compile.ts';
export { newEnvironment, baseEnvironment } from './environment.ts';
export type { CelEnvironment, VariableDecl } from './environment.ts';
export type { CelError, CelErrorType } from './errors.ts';
export { escapeName, unescapeName } from './escaping.ts';
export * from './limits.ts';
export { schemaDeclType, withTypeAndObjectMeta } from './schema.ts';
export type { CelSchema } from './schema.ts';
export {
  AnyType, BoolType, BytesType, DoubleType, DurationType, DynType, IntType, NullType, StringType, TimestampType, UintType,
  assignTypeNames, celTypeName, listType, mapType, objectType, objectTypesOf, simpleType, NO_MAX_LENGTH,
} from './types.ts';
export type { DeclField, DeclType, ListDeclType, ListKind, MapDeclType, ObjectDeclType, SimpleDeclType, SimpleTypeName } from './types.ts';
export { CelObject, celEquals, dynToCel, fromCelValue, toCelValue } from './values.ts';
