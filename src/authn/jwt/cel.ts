// CEL of JWT authenticators: expressions over `claims` (map(string, dyn)) for claim validation
// rules and claim mappings, and over `user` (kubernetes.UserInfo) for user validation rules, in
// kube's CEL environment (src/cel). Compile errors and runtime conversions carry kube's texts.
// Counterpart of k8s.io/apiserver/pkg/authentication/cel (compile.go, mapper.go) and the value
// conversions of plugin/pkg/authenticator/token/oidc/oidc.go.
import {
  AnyType, compile, dynToCel, evaluate, listType, mapType, newEnvironment, objectType, PerCallLimit, StringType,
  toCelValue, type CelEnvironment, type CelError, type DeclType, type Program,
} from '../../cel/index.ts';
import { walk, type AstNode } from '../../cel/ast.ts';
import { formatIssue } from '../../cel/errors.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';

const strings = (): DeclType => listType(StringType, -1);
const field = (name: string, type: DeclType): [string, { name: string; jsonName: string; type: DeclType; required: boolean }] =>
  [name, { name, jsonName: name, type, required: false }];

/** kubernetes.UserInfo, the type of `user`. */
const userType = objectType('kubernetes.UserInfo', new Map([
  field('username', StringType), field('uid', StringType), field('groups', strings()),
  field('extra', mapType(StringType, strings(), -1)),
]));

let claimsEnv: CelEnvironment | undefined;
let userEnv: CelEnvironment | undefined;
const environments = {
  claims: (): CelEnvironment => (claimsEnv ??= newEnvironment([{ name: 'claims', type: mapType(StringType, AnyType, -1) }])),
  user: (): CelEnvironment => (userEnv ??= newEnvironment([{ name: 'user', type: userType }])),
};

export type CompiledExpression = { readonly program: Program; readonly error?: undefined } | { readonly error: CelError };

const COMPREHENSIONS = new Set(['map', 'filter', 'all', 'exists', 'exists_one', 'existsOne', 'transformList', 'transformMap', 'transformMapEntry']);
const isClaims = (n: AstNode | undefined): boolean => n?.op === 'id' && n.args === 'claims';

/**
 * kube types `claims` as map(string, any): a claim read straight off it (`claims.x`, `claims['x']`,
 * `claims.?x.orValue(…)`) is of type any, which cel-go refuses as a comprehension's range (a
 * claim nested deeper is dyn). The library types it dyn, so this finds what cel-go refuses; the
 * offset is where cel-go puts the range expression (its `.`, `[` or call parenthesis).
 */
function anyRangeIssues(expression: string, program: Program): string[] {
  const out: string[] = [];
  const operand = (n: AstNode): AstNode | undefined => (n.args as unknown[])[0] as AstNode | undefined;
  const anyOffset = (n: AstNode): number | undefined => {
    if ((n.op === '.' || n.op === '[]') && isClaims(operand(n))) return operand(n)?.end;
    if (n.op === 'rcall') {
      const [name, receiver] = n.args as [string, AstNode];
      if ((name === 'orValue' || name === 'value') && receiver.op === '.?' && isClaims(operand(receiver))) {
        return expression.indexOf('(', receiver.end);
      }
    }
    return undefined;
  };
  for (const n of walk(program.ast as AstNode)) {
    if (n.op !== 'rcall') continue;
    const [name, receiver] = n.args as [string, AstNode];
    if (!COMPREHENSIONS.has(name)) continue;
    const at = anyOffset(receiver);
    if (at !== undefined && at >= 0) out.push(formatIssue(expression, at, "expression of type 'any' cannot be range of a comprehension (must be list, map, or dynamic)"));
  }
  return out;
}

/**
 * Compiles an expression over `claims` or `user`. `bool`: the expression is a validation rule,
 * which must be typed bool (a dyn result is refused, as kube refuses it).
 */
export function compileExpression(expression: string, variable: 'claims' | 'user', bool: boolean): CompiledExpression {
  const r = compile(expression, environments[variable]());
  if (r.error !== undefined) return { error: r.error };
  const issues = variable === 'claims' ? anyRangeIssues(expression, r.program) : [];
  if (issues.length > 0) return { error: { type: 'invalid', detail: `compilation failed: ${issues.join('\n')}` } };
  if (bool && r.program.outputType !== 'bool') return { error: { type: 'invalid', detail: 'must evaluate to bool' } };
  return { program: r.program };
}

/** Whether the expression selects `claims.<name>` (or `claims.?<name>`), as kube's hasSelectExp. */
export function selectsClaim(program: Program, name: string): boolean {
  for (const n of walk(program.ast as AstNode)) {
    if (n.op !== '.' && n.op !== '.?') continue;
    const [operand, f] = n.args as [AstNode, unknown];
    if (f === name && operand.op === 'id' && operand.args === 'claims') return true;
  }
  return false;
}

export type Evaluated = { readonly value: unknown; readonly error?: undefined } | { readonly error: string };

/** kube's mapper names the expression in an evaluation error. */
const evalError = (program: Program, detail: string): { error: string } =>
  ({ error: `expression '${program.expression}' resulted in error: ${detail}` });

export function evalClaims(program: Program, claims: Readonly<Record<string, unknown>>): Evaluated {
  const r = evaluate(program, { claims: dynToCel(claims) }, { costLimit: PerCallLimit });
  return r.error !== undefined ? evalError(program, r.error.detail) : { value: r.value };
}

export function evalUser(program: Program, user: UserInfo): Evaluated {
  const value = { username: user.name, uid: user.uid ?? '', groups: [...user.groups], extra: user.extra ?? {} };
  const r = evaluate(program, { user: toCelValue(value, userType) }, { costLimit: PerCallLimit });
  return r.error !== undefined ? evalError(program, r.error.detail) : { value: r.value };
}

/**
 * A mapping's value as strings: a string (empty: none), a list of strings (empty ones dropped) or
 * null (none); anything else is kube's error.
 */
export function toStringList(v: unknown): string[] | Error {
  const bad = new Error('expression must return a string or a list of strings');
  if (v === null || v === undefined) return [];
  if (typeof v === 'string') return v === '' ? [] : [v];
  if (!Array.isArray(v)) return bad;
  const out: string[] = [];
  for (const e of v as unknown[]) {
    if (typeof e !== 'string') return bad;
    if (e !== '') out.push(e);
  }
  return out;
}
