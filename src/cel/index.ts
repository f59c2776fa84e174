// src/cel: the CEL environment of kube-apiserver v1.36, on @marcbachmann/cel-js (parser, checker,
// evaluator) with kube's libraries, types, error texts and costs on top. One environment for CRD
// validation rules, admission policies and webhook matchConditions (issue 15).
// Counterpart of k8s.io/apiserver/pkg/cel/environment.
//
// Usage (a CRD validation rule on a schema node):
//   const t = assignTypeNames(schemaDeclType(schema, isRoot)!, 'selfType0');
//   const env = newEnvironment([{ name: 'self', type: t }, { name: 'oldSelf', type: t }]);
//   const r = compileCached('self.replicas <= self.maxReplicas', env);
//   if (r.error) → 422 cause: r.error.detail ('compilation failed: ERROR: <input>:1:6: …')
//   r.program.outputType === 'bool' else kube's 'cel expression must evaluate to a bool' (caller's text)
//   estimateCost(r.program).max > StaticEstimatedCostLimit → costErrorMessage('estimated rule cost', …)
//   const self = toCelValue(json, t);                       // once per object, shared by its rules
//   const v = evaluate(r.program, { self }, { costLimit: PerCallLimit });
//   v.error?.detail is cel-go's runtime text ('no such key: x'); v.costLimitExceeded marks
//   'operation cancelled: actual cost limit exceeded'; v.cost is the runtime cost for budgets;
//   v.value is a CEL value (bigint for int, CelObject for objects, Map for maps): fromCelValue → JSON.
// A policy: variables `object`/`oldObject`/`params`/`request`… typed from schemas (or DynType), and
// `authorizer` of AuthorizerType with authorizerValue(user, authorizer, requestResource) as its value;
// such expressions may wait on the authorizer: use evaluateAsync.
//
// API
// - Types: DeclType (types.ts) with IntType, StringType, DynType, AuthorizerType… listType/mapType/
//   objectType; schemaDeclType (schema.ts) from an OpenAPI v3 structural schema (CelSchema);
//   assignTypeNames gives object types kube's path names (`selfType0.spec`, `….@idx`); celTypeName
//   prints a type as cel-go does; escapeName/unescapeName for property names (`__dash__`, `__dot__`,
//   `__slash__`, `__underscores__`, `__if__`…).
// - Environments: newEnvironment(variables) → CelEnvironment (base libraries + variables); equal
//   declarations return the same environment.
// - compile(expression, env) / compileCached(…) → {program} | {error: CelError}. Never throw for bad
//   expressions. Errors read as kube's (`compilation failed: ERROR: <input>:L:C: …` with the source
//   line and caret; `program instantiation failed: …` for constant regexes kube compiles at planning).
// - evaluate(program, activation, {costLimit}) → {value, cost} | {error, cost, costLimitExceeded?};
//   evaluateAsync for expressions that call an asynchronous authorizer. Never throw.
// - Cost: estimateCost(program) → {min, max} as kube's static estimate; costErrorMessage(description,
//   cost, limit) words kube's `… exceeds budget by factor of …`; COST_LIMIT_EXCEEDED.
// - Values: toCelValue(json, type), dynToCel(json) for untyped data, fromCelValue(value) → JSON.
// - Limits: PerCallLimit, RuntimeCELCostBudget, RuntimeCELCostBudgetMatchConditions,
//   StaticEstimatedCostLimit, StaticEstimatedCRDCostLimit, MaxRequestSizeBytes,
//   MaxEvaluatedMessageExpressionSizeBytes (limits.ts).
// - Authz: CelAuthorizer (the policy code implements it over kapi's authorizer), CelAuthzAttributes,
//   CelAuthzDecision, CelUserInfo, authorizerValue.
// Errors: CelError {type: 'invalid' | 'required' | 'internal', detail} with kube's exact text.
export { compile, evaluate, evaluateAsync, COMPILATION_FAILED } from './compile.ts';
export type { CompileResult, EvalOptions, EvalResult, Program } from './compile.ts';
export { compileCached, cachedPrograms } from './cache.ts';
export { estimateCost, costErrorMessage } from './cost-estimate.ts';
export type { Estimate } from './cost-estimate.ts';
export { COST_LIMIT_EXCEEDED } from './cost-runtime.ts';
export { newEnvironment, baseEnvironment } from './environment.ts';
export type { CelEnvironment, VariableDecl } from './environment.ts';
export type { CelError, CelErrorType } from './errors.ts';
export { escapeName, unescapeName } from './escaping.ts';
export * from './limits.ts';
export { schemaDeclType, withTypeAndObjectMeta } from './schema.ts';
export type { CelSchema } from './schema.ts';
export {
  AnyType, AuthorizerType, BoolType, BytesType, DoubleType, DurationType, DynType, IntType, NullType, StringType, TimestampType, UintType,
  assignTypeNames, celTypeName, listType, mapType, objectType, objectTypesOf, simpleType, typeKey, NO_MAX_LENGTH,
} from './types.ts';
export type { DeclField, DeclType, ListDeclType, ListKind, MapDeclType, ObjectDeclType, SimpleDeclType, SimpleTypeName } from './types.ts';
export { CelObject, celEquals, classOf, dynToCel, fromCelValue, isNullObject, nullObject, optionalValue, toCelValue } from './values.ts';
export { authorizerValue } from './library/authz.ts';
export type { CelAuthorizer, CelAuthzAttributes, CelAuthzDecision, CelRequestResource, CelUserInfo } from './library/authz.ts';
export {
  admissionRequestType, namespaceType, AuthorizerVarName, NamespaceVarName, ObjectVarName, OldObjectVarName, ParamsVarName, RequestVarName, VariableVarName,
} from './admission-types.ts';
export { compileWithPatchTypes, patchValueToJSON, typeNameMismatches } from './mutation.ts';
export { escapeKey, JSONPatchValue, JSONPATCH_TYPE_NAME, MutationObject, OBJECT_TYPE_NAME } from './mutation-types.ts';
export type { EnvironmentOptions } from './environment.ts';
