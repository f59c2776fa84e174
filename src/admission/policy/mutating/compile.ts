// A MutatingAdmissionPolicy compiled once per version of the policy: its variables and match
// conditions as a ValidatingAdmissionPolicy's, and each mutation's expression in kube's patch-type
// environment (`Object{…}` constructions, JSONPatch, jsonpatch.escapeKey), which must return an
// `Object` (ApplyConfiguration) or a `list(JSONPatch)` (JSONPatch). Errors are kept and answered
// through failurePolicy when a request reaches the mutation, as kube does.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/policy/mutating/compilation.go and
// mutating/patch/{smd,json_patch}.go (ReturnTypes).
import { compileWithPatchTypes, DynType, newEnvironment, type CelErrorType, type DeclType } from '../../../cel/index.ts';
import type { MutatingAdmissionPolicy } from '../../../generated/types/admissionregistrationv1.gen.ts';
import {
  compileOne, outputDeclType, policyVariables, usesOf, type CompiledExpression, type VariableType,
} from '../validating/compile.ts';

export type PatchType = 'ApplyConfiguration' | 'JSONPatch';

export interface CompiledMutation extends CompiledExpression {
  readonly patchType: PatchType;
}

export interface CompiledMutatingPolicy {
  readonly policy: MutatingAdmissionPolicy;
  readonly failurePolicy: string;
  readonly variables: readonly (CompiledExpression & { readonly name: string; readonly type: DeclType })[];
  readonly matchConditions: readonly (CompiledExpression & { readonly name: string })[];
  /** One per mutation kube compiles (a mutation without its patchType's body has none). */
  readonly mutations: readonly CompiledMutation[];
}

/** What each patch type's expression must evaluate to, as cel-go prints the type. */
const RETURN_TYPE: Readonly<Record<PatchType, string>> = { ApplyConfiguration: 'Object', JSONPatch: 'list(JSONPatch)' };

/** A mutation's expression compiled with the patch types; the result must be exactly its patch type's. */
export function compileMutationExpression(expression: string, patchType: PatchType, hasParams: boolean,
  variables: readonly VariableType[] | undefined): CompiledExpression {
  const declared = new Set((variables ?? []).map((v) => v.name));
  const uses = usesOf(expression, declared);
  const r = compileWithPatchTypes(expression, policyVariables(hasParams, true, variables));
  if (r.error !== undefined) return { expression, error: r.error.detail, errorType: r.error.type, uses };
  const want = RETURN_TYPE[patchType];
  if (r.program.outputType !== want) return { expression, error: `must evaluate to ${want} but got ${r.program.outputType}`, errorType: 'invalid', uses };
  return { expression, program: r.program, uses };
}

/** The variables in order, each typed by its expression and seeing those before it. */
function compileVariables(policy: MutatingAdmissionPolicy, hasParams: boolean): CompiledMutatingPolicy['variables'] {
  const names: VariableType[] = [];
  return (policy.spec?.variables ?? []).map((v) => {
    const c = compileOne(v.expression, newEnvironment(policyVariables(hasParams, true, names)), [], new Set(names.map((n) => n.name)));
    const type = c.program === undefined ? DynType : outputDeclType(c.program.outputType);
    names.push({ name: v.name, type });
    return { ...c, name: v.name, type };
  });
}

export function compileMutatingPolicy(policy: MutatingAdmissionPolicy): CompiledMutatingPolicy {
  const spec = policy.spec ?? {};
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  const variables = compileVariables(policy, hasParams);
  const names = variables.map((v) => ({ name: v.name, type: v.type }));
  const declared = new Set(names.map((n) => n.name));
  const env = newEnvironment(policyVariables(hasParams, true, names));
  const mutations: CompiledMutation[] = [];
  for (const m of spec.mutations ?? []) {
    if (m.patchType === 'JSONPatch' && m.jsonPatch !== undefined) {
      mutations.push({ ...compileMutationExpression(m.jsonPatch.expression ?? '', 'JSONPatch', hasParams, names), patchType: 'JSONPatch' });
    } else if (m.patchType === 'ApplyConfiguration' && m.applyConfiguration !== undefined) {
      mutations.push({ ...compileMutationExpression(m.applyConfiguration.expression ?? '', 'ApplyConfiguration', hasParams, names), patchType: 'ApplyConfiguration' });
    }
  }
  return {
    policy,
    failurePolicy: spec.failurePolicy ?? 'Fail',
    variables,
    matchConditions: (spec.matchConditions ?? []).map((m) => ({ ...compileOne(m.expression, env, ['bool'], declared), name: m.name })),
    mutations,
  };
}

/** What API validation reports for one expression that does not compile. */
export interface MutationProblem {
  readonly type: CelErrorType;
  readonly detail: string;
}

/**
 * The compile errors API validation answers for a policy's mutations (trimmed expressions, the
 * variables declared with their types), by mutation index; undefined where it compiles.
 */
export function mutationProblems(policy: MutatingAdmissionPolicy): (MutationProblem | undefined)[] {
  const spec = policy.spec ?? {};
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  const variables = compileVariables(policy, hasParams);
  const names = variables.length > 0 ? variables.map((v) => ({ name: v.name, type: v.type })) : undefined;
  return (spec.mutations ?? []).map((m) => {
    const type = m.patchType === 'JSONPatch' ? 'JSONPatch' : m.patchType === 'ApplyConfiguration' ? 'ApplyConfiguration' : undefined;
    const body = type === 'JSONPatch' ? m.jsonPatch : type === 'ApplyConfiguration' ? m.applyConfiguration : undefined;
    const expression = (body?.expression ?? '').trim();
    if (type === undefined || expression === '') return undefined;
    const c = compileMutationExpression(expression, type, hasParams, names);
    return c.error === undefined ? undefined : { type: c.errorType ?? 'invalid', detail: c.error };
  });
}
