// Compiles the x-kubernetes-validations of one schema node: each rule against `self` (and `oldSelf`,
// optional with optionalOldSelf) typed from the node's schema, which must yield a bool; its
// messageExpression, which must yield a string; whether it is a transition rule (uses oldSelf);
// its estimated cost and how often it may run; and its fieldPath resolved below the node.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/compilation.go.
import {
  assignTypeNames, compile, COMPILATION_FAILED, estimateCost, MaxRequestSizeBytes, newEnvironment, schemaDeclType,
  type CelEnvironment, type CelError, type CelSchema, type DeclType, type Program,
} from '../../../cel/index.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { JSONSchemaProps, ValidationRule } from '../../v1/types.ts';
import { validFieldPath } from './field-path.ts';

type Schema = DeepReadonly<JSONSchemaProps>;

export interface CompilationResult {
  readonly rule: DeepReadonly<ValidationRule>;
  /** Undefined for an empty rule (nothing to run) or one that failed to compile. */
  readonly program?: Program;
  readonly error?: CelError;
  /** A transition rule: it names oldSelf, so it runs only where an old value exists (or optionalOldSelf). */
  readonly usesOldSelf: boolean;
  /** The estimated worst-case cost of one evaluation. */
  readonly maxCost: number;
  /** How many times the rule could run, when nothing above it bounds that: request size / smallest value. */
  readonly maxCardinality: number;
  readonly hasMessageExpression: boolean;
  readonly messageExpression?: Program;
  readonly messageExpressionError?: CelError;
  readonly messageExpressionMaxCost: number;
  /** The rule's fieldPath below the node, as a field path ("max", "labels[k]"); '' when none. */
  readonly normalizedFieldPath: string;
}

/** The types of a node's self, and the environments its rules compile in. */
export interface NodeEnvironments {
  readonly self: DeclType;
  readonly env: CelEnvironment;
  readonly optionalOldSelfEnv: CelEnvironment;
}

let typeNames = 0;

/**
 * The environments of a node with schema `s`, or undefined when the schema has no CEL type. Each
 * call names `self`'s type anew (selfType0, selfType1, …), as kube does, so that no rule can depend
 * on the name.
 */
export function nodeEnvironments(s: Schema, isResourceRoot: boolean): NodeEnvironments | undefined {
  const t = schemaDeclType(s as CelSchema, isResourceRoot);
  if (t === undefined) return undefined;
  const self = assignTypeNames(t, `selfType${typeNames++}`);
  return {
    self,
    env: newEnvironment([{ name: 'self', type: self }, { name: 'oldSelf', type: self }]),
    optionalOldSelfEnv: newEnvironment([{ name: 'self', type: self }, { name: 'oldSelf', type: self, optional: true }]),
  };
}

/**
 * Whether the expression names the variable oldSelf (not a field of that name, not inside a
 * string): kube asks the checked expression's references.
 */
export function usesOldSelf(expression: string): boolean {
  const code = expression.replace(/(?:[rRbB]{0,2})('''[\s\S]*?'''|"""[\s\S]*?"""|'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*")/g, '""');
  return /(?<![.\w])oldSelf(?!\w)/.test(code);
}

const withPrefix = (e: CelError, prefix: string): CelError =>
  ({ type: e.type, detail: prefix + (e.detail.startsWith(COMPILATION_FAILED) ? e.detail.slice(COMPILATION_FAILED.length) : e.detail) });

/**
 * Compiles every rule of `s` (not those below it). Throws when the schema has no CEL type (kube's
 * "failed to convert to declType for CEL validation rules").
 */
export function compileRules(s: Schema, isResourceRoot: boolean, envs = nodeEnvironments(s, isResourceRoot)): CompilationResult[] {
  const rules = s['x-kubernetes-validations'] ?? [];
  if (rules.length === 0) return [];
  if (envs === undefined) throw new Error('failed to convert to declType for CEL validation rules');
  const maxCardinality = Math.trunc(MaxRequestSizeBytes / (envs.self.minSerializedSize + 1));
  return rules.map((r) => compileRule(s, r, r.optionalOldSelf === true ? envs.optionalOldSelfEnv : envs.env, maxCardinality));
}

function compileRule(s: Schema, r: DeepReadonly<ValidationRule>, env: CelEnvironment, maxCardinality: number): CompilationResult {
  const base = { rule: r, usesOldSelf: false, maxCost: 0, maxCardinality, hasMessageExpression: false, messageExpressionMaxCost: 0, normalizedFieldPath: '' };
  if ((r.rule ?? '').trim() === '') return base;
  const compiled = compile(r.rule, env);
  if (compiled.error !== undefined) return { ...base, error: compiled.error };
  if (compiled.program.outputType !== 'bool') return { ...base, error: { type: 'invalid', detail: 'cel expression must evaluate to a bool' } };
  const result = { ...base, program: compiled.program, usesOldSelf: usesOldSelf(r.rule), maxCost: estimatedCost(compiled.program) };
  let normalizedFieldPath = '';
  if ((r.fieldPath ?? '') !== '') {
    try { normalizedFieldPath = validFieldPath(r.fieldPath ?? '', s).path; } catch { normalizedFieldPath = ''; }
  }
  const me = r.messageExpression ?? '';
  if (me === '') return { ...result, normalizedFieldPath };
  // kube returns at the first messageExpression problem, before resolving the fieldPath.
  const msg = compile(me, env);
  if (msg.error !== undefined) return { ...result, hasMessageExpression: true, messageExpressionError: withPrefix(msg.error, 'messageExpression compilation failed: ') };
  if (msg.program.outputType !== 'string') {
    return { ...result, hasMessageExpression: true, messageExpressionError: { type: 'invalid', detail: 'messageExpression must evaluate to a string' } };
  }
  return { ...result, hasMessageExpression: true, messageExpression: msg.program, messageExpressionMaxCost: estimatedCost(msg.program), normalizedFieldPath };
}

/** The estimated worst-case cost of a program (cel-go's estimate with the declared types' sizes). */
function estimatedCost(p: Program): number {
  return estimateCost(p).max;
}
