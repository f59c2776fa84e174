// Compile once, evaluate many: compile parses and type-checks an expression against an environment
// and returns a program (or kube's `compilation failed: …` error); evaluate runs the program on an
// activation and returns the value or kube's runtime error text.
// Go counterparts: k8s.io/apiserver/pkg/cel/environment (Compile), cel-go's Program.Eval.
import type { CelEnvironment } from './environment.ts';
import type { AstNode } from './ast.ts';
import { compileIssues, formatIssue, goTypeName, runtimeMessage, type CelError } from './errors.ts';
import { kubePass } from './kube-pass.ts';

/** A type-checked expression, ready to evaluate any number of times. */
export interface Program {
  readonly expression: string;
  readonly env: CelEnvironment;
  /** The result type as cel-go names it: `bool`, `string`, `list(int)`, `dyn`… */
  readonly outputType: string;
  /** @internal the library's evaluator of the checked expression. */
  readonly run: (ctx: Readonly<Record<string, unknown>>) => unknown;
}

export type CompileResult =
  | { readonly program: Program; readonly error?: undefined }
  | { readonly program?: undefined; readonly error: CelError };

/** The prefix kube puts before cel-go's issues. */
export const COMPILATION_FAILED = 'compilation failed: ';

/**
 * Parses and type-checks `expression` in `env`. Never throws for a bad expression: the error is
 * `{type: 'invalid', detail: 'compilation failed: ERROR: <input>:1:6: …'}` as kube words it.
 */
export function compile(expression: string, env: CelEnvironment): CompileResult {
  let parsed: ReturnType<CelEnvironment['lib']['parse']>;
  try {
    parsed = env.lib.parse(expression);
  } catch (err) {
    return { error: { type: 'invalid', detail: COMPILATION_FAILED + compileIssues(err, expression) } };
  }
  const checked = parsed.check();
  if (!checked.valid) {
    return { error: { type: 'invalid', detail: COMPILATION_FAILED + compileIssues(checked.error, expression) } };
  }
  const issues = kubePass(parsed.ast as AstNode, expression, new Set(env.variables.keys()));
  if (issues.length > 0) {
    return { error: { type: 'invalid', detail: COMPILATION_FAILED + issues.map((i) => formatIssue(expression, i.offset, i.message)).join('\n') } };
  }
  const run = (ctx: Readonly<Record<string, unknown>>): unknown => parsed(ctx) as unknown;
  return { program: { expression, env, outputType: goTypeName(checked.type), run } };
}

export interface EvalOptions {
  /** The most the evaluation may cost (kube's PerCallLimit, or what is left of a budget). */
  readonly costLimit?: number;
}

export type EvalResult =
  | { readonly value: unknown; readonly cost: number; readonly error?: undefined }
  | { readonly value?: undefined; readonly cost: number; readonly error: CelError };

/**
 * Evaluates `program` on `activation` (CEL values by variable name: see toCelValue). Never throws for
 * an expression's error: `{error: {type: 'invalid', detail: 'no such key: x'}}` in cel-go's words.
 */
export function evaluate(program: Program, activation: Readonly<Record<string, unknown>>, opts: EvalOptions = {}): EvalResult {
  void opts;
  try {
    return { value: program.run(activation), cost: 0 };
  } catch (err) {
    return { error: { type: 'invalid', detail: runtimeMessage(err) }, cost: 0 };
  }
}
