// A ValidatingAdmissionPolicy compiled once per version of the policy: its variables, match
// conditions, validations, message expressions and audit annotations, each a program or the error
// kube reports for it when a request reaches it (compile errors do not stop the policy from
// matching: they answer the request through failurePolicy).
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/policy/validating/plugin.go (compilePolicy)
// and k8s.io/apiserver/pkg/admission/plugin/cel/{compile,composition}.go.
import {
  admissionRequestType, AuthorizerType, BoolType, BytesType, compile, DoubleType, DurationType, DynType, IntType, listType, mapType, namespaceType,
  newEnvironment, NullType, objectType, StringType, TimestampType, UintType,
  type CelEnvironment, type CelErrorType, type DeclField, type DeclType, type ObjectDeclType, type Program, type VariableDecl,
} from '../../../cel/index.ts';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicySpec } from '../../../generated/types/admissionregistrationv1.gen.ts';

/** One expression: its program, or the error text an evaluation of it reports. */
export interface CompiledExpression {
  readonly expression: string;
  readonly program?: Program | undefined;
  readonly error?: string | undefined;
  /** Whether the error is the expression's ('invalid', 'required') or kube's own ('internal'). */
  readonly errorType?: CelErrorType | undefined;
  /** The `variables.<name>` it reads (to charge their cost and pass on their errors). */
  readonly uses: readonly string[];
}

export interface CompiledValidation extends CompiledExpression {
  readonly message: string;
  readonly reason: string | undefined;
  readonly messageExpression?: CompiledExpression | undefined;
}

export interface CompiledAuditAnnotation extends CompiledExpression {
  readonly key: string;
}

export interface CompiledPolicy {
  readonly policy: ValidatingAdmissionPolicy;
  readonly failurePolicy: string;
  readonly variables: readonly (CompiledExpression & { readonly name: string; readonly type: DeclType })[];
  readonly matchConditions: readonly (CompiledExpression & { readonly name: string })[];
  readonly validations: readonly CompiledValidation[];
  readonly auditAnnotations: readonly CompiledAuditAnnotation[];
}

const requestType = admissionRequestType();
const nsType = namespaceType();

/** A declared variable: its name and the type of its expression (dyn when it does not compile). */
export interface VariableType {
  readonly name: string;
  readonly type: DeclType;
}

const SIMPLE: Readonly<Record<string, DeclType>> = {
  int: IntType, uint: UintType, double: DoubleType, bool: BoolType, string: StringType, bytes: BytesType,
  duration: DurationType, 'google.protobuf.Duration': DurationType, timestamp: TimestampType, 'google.protobuf.Timestamp': TimestampType,
  null_type: NullType, dyn: DynType,
};
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/** Splits `a, b` at the top level of parentheses. */
function splitArgs(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    else if (s[i] === ',' && depth === 0) { out.push(s.slice(start, i).trim()); start = i + 1; }
  }
  out.push(s.slice(start).trim());
  return out;
}

/**
 * convertCelTypeToDeclType: a variable's type from its expression's output type (`int`,
 * `list(string)`, `map(string, int)`…); object and other types are dyn.
 */
export function outputDeclType(t: string): DeclType {
  const simple = SIMPLE[t];
  if (simple !== undefined) return simple;
  const m = /^(list|map)\((.*)\)$/.exec(t);
  if (m === null) return DynType;
  const args = splitArgs(m[2] ?? '');
  if (m[1] === 'list' && args.length === 1) return listType(outputDeclType(args[0] ?? 'dyn'), UNBOUNDED);
  if (m[1] === 'map' && args.length === 2) return mapType(outputDeclType(args[0] ?? 'dyn'), outputDeclType(args[1] ?? 'dyn'), UNBOUNDED);
  return DynType;
}

/** The `variables` object type holding the variables declared so far (kube's kubernetes.variables). */
export function variablesType(vars: readonly VariableType[]): ObjectDeclType {
  const fields = new Map<string, DeclField>();
  for (const v of vars) fields.set(v.name, { name: v.name, jsonName: v.name, type: v.type, required: true });
  return objectType('kubernetes.variables', fields);
}

/**
 * kube's environments: params only with a paramKind; the authorizer for all but message
 * expressions; `variables` with the names declared so far (undefined: not declared at all, as
 * kube's stateless compiler for policies without variables and for match conditions).
 */
export function policyVariables(hasParams: boolean, hasAuthorizer: boolean, variableNames: readonly VariableType[] | undefined): VariableDecl[] {
  const vars: VariableDecl[] = [
    { name: 'object', type: DynType }, { name: 'oldObject', type: DynType }, { name: 'request', type: requestType },
    { name: 'namespaceObject', type: nsType },
  ];
  if (variableNames !== undefined) vars.push({ name: 'variables', type: variablesType(variableNames) });
  if (hasParams) vars.push({ name: 'params', type: DynType });
  if (hasAuthorizer) vars.push({ name: 'authorizer', type: AuthorizerType });
  return vars;
}

function environment(hasParams: boolean, hasAuthorizer: boolean, variableNames: readonly VariableType[] | undefined): CelEnvironment {
  return newEnvironment(policyVariables(hasParams, hasAuthorizer, variableNames));
}

const VARIABLE_REF = /\bvariables\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)/g;

export function usesOf(expression: string, declared: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const m of expression.matchAll(VARIABLE_REF)) if (m[1] !== undefined && declared.has(m[1])) out.add(m[1]);
  return [...out];
}

/**
 * Compiles one expression; `returnTypes` as kube's ExpressionAccessor.ReturnTypes (empty: any).
 * The output type must be exactly one of them (cel-go's IsExactType: dyn is not bool).
 */
export function compileOne(expression: string, env: CelEnvironment, returnTypes: readonly string[], declared: ReadonlySet<string>): CompiledExpression {
  const uses = usesOf(expression, declared);
  const r = compile(expression, env);
  if (r.error !== undefined) return { expression, error: r.error.detail, errorType: r.error.type, uses };
  const out = r.program.outputType;
  if (returnTypes.length > 0 && !returnTypes.includes(out)) {
    const error = returnTypes.length === 1 ? `must evaluate to ${returnTypes[0] ?? ''} but got ${out}`
      : `must evaluate to one of [${returnTypes.join(' ')}] but got ${out}`;
    return { expression, error, errorType: 'invalid', uses };
  }
  return { expression, program: r.program, uses };
}

export function compilePolicy(policy: ValidatingAdmissionPolicy): CompiledPolicy {
  const spec = policy.spec ?? {};
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  const names: VariableType[] = [];
  const variables: (CompiledExpression & { name: string; type: DeclType })[] = [];
  // Each variable sees the ones declared before it (kube adds fields to the variables type as it compiles).
  for (const v of spec.variables ?? []) {
    const c = compileOne(v.expression, environment(hasParams, true, names), [], new Set(names.map((n) => n.name)));
    const type = c.program === undefined ? DynType : outputDeclType(c.program.outputType);
    variables.push({ ...c, name: v.name, type });
    names.push({ name: v.name, type });
  }
  const declared = new Set(names.map((n) => n.name));
  const withAuthz = environment(hasParams, true, names);
  const withoutAuthz = environment(hasParams, false, names);
  return {
    policy,
    failurePolicy: spec.failurePolicy ?? 'Fail',
    variables,
    matchConditions: (spec.matchConditions ?? []).map((m) => ({ ...compileOne(m.expression, withAuthz, ['bool'], declared), name: m.name })),
    validations: (spec.validations ?? []).map((v) => ({
      ...compileOne(v.expression, withAuthz, ['bool'], declared),
      message: v.message ?? '',
      reason: v.reason,
      messageExpression: v.messageExpression !== undefined && v.messageExpression !== ''
        ? compileOne(v.messageExpression, withoutAuthz, ['string'], declared) : undefined,
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => ({
      ...compileOne(a.valueExpression, withAuthz, ['string', 'null_type'], declared), key: a.key,
    })),
  };
}

/** What API validation reports for one expression: its error, if it does not compile. */
export interface ExpressionProblem {
  readonly type: CelErrorType;
  readonly detail: string;
}

export interface PolicyExpressionProblems {
  readonly matchConditions: readonly (ExpressionProblem | undefined)[];
  readonly variables: readonly (ExpressionProblem | undefined)[];
  readonly validations: readonly { readonly expression?: ExpressionProblem | undefined; readonly messageExpression?: ExpressionProblem | undefined }[];
  readonly auditAnnotations: readonly (ExpressionProblem | undefined)[];
}

const problem = (c: CompiledExpression): ExpressionProblem | undefined =>
  (c.error === undefined ? undefined : { type: c.errorType ?? 'invalid', detail: c.error });
const blank = (s: string | undefined): boolean => (s ?? '').trim() === '';

/**
 * The compile errors API validation answers for a policy's expressions (kube compiles them on
 * create and update): match conditions without `variables`; validations, messages and audit
 * annotations with `variables` only when the policy declares some. Blank expressions are left to
 * the structural checks.
 */
export function policyExpressionProblems(spec: ValidatingAdmissionPolicySpec): PolicyExpressionProblems {
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  const variables = spec.variables ?? [];
  const names: VariableType[] = [];
  const variableProblems = variables.map((v) => {
    const c = blank(v.expression) ? undefined : compileOne(v.expression, environment(hasParams, true, names), [], new Set(names.map((n) => n.name)));
    names.push({ name: v.name, type: c?.program === undefined ? DynType : outputDeclType(c.program.outputType) });
    return c === undefined ? undefined : problem(c);
  });
  const declared = variables.length > 0 ? names : undefined;
  const set = new Set(names.map((n) => n.name));
  const check = (e: string | undefined, env: CelEnvironment, types: readonly string[]): ExpressionProblem | undefined =>
    (blank(e) ? undefined : problem(compileOne(e ?? '', env, types, set)));
  return {
    matchConditions: (spec.matchConditions ?? []).map((m) => check(m.expression.trim(), environment(hasParams, true, undefined), ['bool'])),
    variables: variableProblems,
    validations: (spec.validations ?? []).map((v) => ({
      expression: check(v.expression, environment(hasParams, true, declared), ['bool']),
      messageExpression: check(v.messageExpression, environment(hasParams, false, declared), ['string']),
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => check(a.valueExpression.trim(), environment(hasParams, true, declared), ['string', 'null_type'])),
  };
}

/**
 * A webhook's match condition as API validation compiles it (no params, no variables, the
 * authorizer declared): its error, if it does not compile.
 */
export function webhookMatchConditionProblem(expression: string): ExpressionProblem | undefined {
  return blank(expression) ? undefined : problem(compileOne(expression.trim(), environment(false, true, undefined), ['bool'], new Set()));
}
