// Compile once, evaluate many: compile parses and type-checks an expression against an environment
// and returns a program (or kube's `compilation failed: …` error); evaluate runs the program on an
// activation and returns the value or kube's runtime error text.
// Go counterparts: k8s.io/apiserver/pkg/cel/environment (Compile), cel-go's Program.Eval.
import { isKubeFunction, type CelEnvironment } from './environment.ts';
import type { AstNode } from './ast.ts';
import { compileIssues, formatIssue, goTypeName, issuesOf, runtimeMessage, type CelError, type LibError } from './errors.ts';
import { kubePass, planIssue, undeclaredIssues, widenHas, type Issue } from './kube-pass.ts';
import { COST_LIMIT_EXCEEDED, CostLimitError, tracked, TRACKER_KEY } from './cost-runtime.ts';
import { instrument } from './instrument.ts';
import { remapIssues, rewriteObjectConstruction } from './mutation-rewrite.ts';

/** A type-checked expression, ready to evaluate any number of times. */
export interface Program {
  readonly expression: string;
  readonly env: CelEnvironment;
  /** The result type as cel-go names it: `bool`, `string`, `list(int)`, `dyn`… */
  readonly outputType: string;
  /** @internal the library's evaluator of the checked expression. */
  readonly run: (ctx: Readonly<Record<string, unknown>>) => unknown;
  /** @internal the checked tree. */
  readonly ast: AstNode;
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
  } catch {
    return constructionIssues(expression, env) ?? failed(expression, syntaxIssues(expression, env));
  }
  widenHas(parsed.ast as AstNode);
  const checked = parsed.check();
  if (!checked.valid) {
    if ((checked.error as { code?: string } | undefined)?.code === 'unknown_variable') {
      const declared = (name: string): boolean => env.variables.has(name) || (name !== 'cel' && env.lib.hasVariable(name));
      const all = undeclaredIssues(parsed.ast as AstNode, expression, declared, isKubeFunction);
      if (all.length > 0) return failed(expression, all);
    }
    return { error: { type: 'invalid', detail: COMPILATION_FAILED + allTypeIssues(parsed, checked.error, expression, env) } };
  }
  const issues = kubePass(parsed.ast as AstNode, expression, new Set(env.variables.keys()));
  if (issues.length > 0) return failed(expression, issues);
  const planned = planIssue(parsed.ast as AstNode);
  // kube's admission compiler reports a planning failure as its own (internal); CRD rules, which
  // take only required or invalid, report it as invalid.
  if (planned !== undefined) return { error: { type: 'internal', detail: planned } };
  instrument(parsed.ast as AstNode);
  const run = (ctx: Readonly<Record<string, unknown>>): unknown => parsed(ctx) as unknown;
  return { program: { expression, env, outputType: goTypeName(checked.type), run, ast: parsed.ast as AstNode } };
}

/**
 * An object construction (`Object{…}`) where no type of that name is declared: cel-go parses it
 * and its checker finds the name undeclared; the library does not parse it at all.
 */
function constructionIssues(expression: string, env: CelEnvironment): CompileResult | undefined {
  const r = rewriteObjectConstruction(expression);
  if (r.typeNames.length === 0) return undefined;
  const c = compile(r.source, env);
  if (c.error === undefined) return undefined;
  if (!c.error.detail.includes("undeclared reference to '__new_")) {
    return { error: { type: c.error.type, detail: remapIssues(c.error.detail, r.source, expression, r.toOriginal) } };
  }
  return failed(expression, r.constructions.map((m) => ({ offset: m.brace, message: `undeclared reference to '${m.name}' (in container '')` })));
}

/** How many times the parse goes on after an error (ANTLR reports up to 100). */
const MAX_SYNTAX_RECOVERIES = 20;

/**
 * The parse errors as cel-go's ANTLR parser reports them: after a token the lexer cannot make (its
 * text reported, then skipped) or an extraneous token at the end (deleted), parsing goes on and
 * reports what follows; the library stops at the first. Offsets stay those of `input` (what is
 * skipped becomes spaces).
 */
function syntaxIssues(input: string, env: CelEnvironment, depth = 0): Issue[] {
  let err: unknown;
  try {
    env.lib.parse(input);
    return [];
  } catch (e) {
    err = e;
  }
  if (typeof err !== 'object' || err === null || !('message' in err)) return [{ offset: 0, message: String(err) }];
  const e = err as LibError;
  const blank = (at: number, n: number): string => input.slice(0, at) + ' '.repeat(n) + input.slice(at + n);
  const more = depth < MAX_SYNTAX_RECOVERIES;
  const lexed = lexerError(e, input);
  if (lexed !== undefined) {
    const issue = { offset: lexed.offset, message: `Syntax error: token recognition error at: '${lexed.text}'` };
    return more ? [issue, ...syntaxIssues(blank(lexed.offset, lexed.text.length), env, depth + 1)] : [issue];
  }
  const issues = issuesOf(e, input, isKubeFunction);
  const extraneous = issues.length === 1 ? /^Syntax error: extraneous input '(.+)' expecting <EOF>$/.exec(issues[0]!.message) : null;
  if (extraneous !== null && extraneous[1] !== '<EOF>' && more) {
    return [issues[0]!, ...syntaxIssues(blank(issues[0]!.offset, extraneous[1]!.length), env, depth + 1)];
  }
  return issues;
}

/**
 * A token ANTLR's lexer cannot make, with the text it reports: a lone `=`, `&` or `|` with the
 * character after it (it tried `==`, `&&`, `||`), another unknown character, a string that does not
 * end, or one up to a bad escape.
 */
function lexerError(e: LibError, input: string): { offset: number; text: string } | undefined {
  const at = e.node?.start ?? e.range?.start;
  if (at === undefined) return undefined;
  const first = e.message.split('\n')[0] ?? '';
  switch (e.code) {
    case 'unexpected_character':
      if (/^Unexpected character: '.*'$/.test(first)) return undefined;
      return { offset: at, text: '=&|'.includes(input[at] ?? '') && at + 1 < input.length ? input.slice(at, at + 2) : input.slice(at, at + 1) };
    case 'unterminated_string':
      return { offset: at, text: input.slice(at) };
    case 'invalid_escape_sequence': {
      const quote = Math.max(input.lastIndexOf("'", at), input.lastIndexOf('"', at));
      return quote < 0 ? undefined : { offset: quote, text: input.slice(quote, at + 2) };
    }
  }
  return undefined;
}

/** cel-go's checker never stops before the end: it reports this many issues at most here (a guard). */
const MAX_TYPE_ISSUES = 100;

/**
 * Every type issue, as cel-go reports them all where the library stops at the first: the node the
 * library refused is given `dyn` (cel-go's error type, assignable to anything, so nothing above it
 * fails because of it) and the tree is checked again, until it passes.
 */
function allTypeIssues(parsed: ReturnType<CelEnvironment['lib']['parse']>, first: unknown, expression: string, env: CelEnvironment): string {
  if (typeof first !== 'object' || first === null || !('message' in first)) return compileIssues(first, expression, isKubeFunction);
  const dyn = dynTypeOf(env);
  const issues: Issue[] = [];
  let err = first as LibError;
  for (let k = 0; k < MAX_TYPE_ISSUES; k++) {
    issues.push(...issuesOf(err, expression, isKubeFunction));
    const node = err.node as { checkedType?: unknown } | undefined;
    if (node === undefined || node.checkedType !== undefined || dyn === undefined) break;
    node.checkedType = dyn;
    const again = parsed.check();
    if (again.valid) break;
    if (typeof again.error !== 'object' || again.error === null || !('message' in again.error)) break;
    err = again.error as LibError;
  }
  // cel-go lists its issues by location, each once (a macro's error can come back from its expansion).
  const seen = new Set<string>();
  return issues.map((i, n) => ({ ...i, n })).filter((i) => { const k = `${String(i.offset)}:${i.message}`; return !seen.has(k) && seen.add(k) !== undefined; })
    .sort((a, b) => a.offset - b.offset || a.n - b.n)
    .map((i) => formatIssue(expression, i.offset, i.message)).join('\n');
}

/** The library's dyn type object (what `dyn(x)` checks as). */
function dynTypeOf(env: CelEnvironment): AstNode['checkedType'] {
  const p = env.lib.parse('dyn(1)');
  return p.check().valid ? (p.ast as AstNode).checkedType : undefined;
}

function failed(expression: string, issues: readonly Issue[]): CompileResult {
  return { error: { type: 'invalid', detail: COMPILATION_FAILED + issues.map((i) => formatIssue(expression, i.offset, i.message)).join('\n') } };
}

export interface EvalOptions {
  /** The most the evaluation may cost (kube's PerCallLimit, or what is left of a budget). */
  readonly costLimit?: number;
}

export type EvalResult =
  | { readonly value: unknown; readonly cost: number; readonly error?: undefined; readonly costLimitExceeded?: undefined }
  | { readonly value?: undefined; readonly cost: number; readonly error: CelError; readonly costLimitExceeded?: boolean };

function result(r: { result?: unknown; error?: unknown; cost: number }): EvalResult {
  if (r.error === undefined) return { value: r.result, cost: r.cost };
  if (r.error instanceof CostLimitError) return { error: { type: 'invalid', detail: COST_LIMIT_EXCEEDED }, cost: r.cost, costLimitExceeded: true };
  return { error: { type: 'invalid', detail: runtimeMessage(r.error) }, cost: r.cost };
}

/**
 * Evaluates `program` on `activation` (CEL values by variable name: see toCelValue), charging kube's
 * runtime cost. Never throws for an expression's error: `{error: {type: 'invalid', detail: 'no such
 * key: x'}}` in cel-go's words; past `costLimit`, `operation cancelled: actual cost limit exceeded`
 * with `costLimitExceeded`. An expression that calls an asynchronous authorizer needs evaluateAsync.
 */
export function evaluate(program: Program, activation: Readonly<Record<string, unknown>>, opts: EvalOptions = {}): EvalResult {
  const r = tracked(opts.costLimit ?? Number.POSITIVE_INFINITY, () => program.run(activation));
  if (r.result instanceof Promise) {
    void r.result.catch(() => undefined);
    return { error: { type: 'internal', detail: 'expression evaluation is asynchronous: use evaluateAsync' }, cost: r.cost };
  }
  return result(r);
}

/** evaluate() for expressions that may wait on an authorizer (`authorizer…check()`). */
export async function evaluateAsync(program: Program, activation: Readonly<Record<string, unknown>>, opts: EvalOptions = {}): Promise<EvalResult> {
  // The steps after an authorizer's answer are charged too (to the tracker the activation carries).
  const r = tracked(opts.costLimit ?? Number.POSITIVE_INFINITY, (t) => program.run({ ...activation, [TRACKER_KEY]: t }));
  if (!(r.result instanceof Promise)) return result(r);
  try {
    return { value: await r.result, cost: r.tracker.cost };
  } catch (error) {
    return result({ error, cost: r.tracker.cost });
  }
}
