// Compiling MutatingAdmissionPolicy mutations (kube's HasPatchTypes environments) and reading
// what they return: object constructions rewritten and compiled, errors located in the original
// text, constructed objects checked against their field paths and turned into JSON.
// Go counterparts: k8s.io/apiserver/pkg/admission/plugin/cel/compile.go (hasPatchTypes),
// k8s.io/apiserver/pkg/cel/mutation/dynamic/objects.go (CheckTypeNamesMatchFieldPathNames, ConvertToNative).
import { compile, COMPILATION_FAILED, type CompileResult } from './compile.ts';
import { newEnvironment, type VariableDecl } from './environment.ts';
import { walk, type AstNode } from './ast.ts';
import { formatIssue, goOffset, goTypeName } from './errors.ts';
import { remapIssues, rewriteObjectConstruction } from './mutation-rewrite.ts';
import { MutationObject } from './mutation-types.ts';
import { fromCelValue } from './values.ts';

/**
 * Compiles `expression` with `variables` and kube's patch types (HasPatchTypes): object
 * constructions allowed, errors located in the original text.
 */
export function compileWithPatchTypes(expression: string, variables: readonly VariableDecl[]): CompileResult {
  const r = rewriteObjectConstruction(expression);
  const env = newEnvironment(variables, { patchTypes: r.typeNames });
  const c = compile(r.source, env);
  if (c.error === undefined) {
    const issues = fieldTypeIssues(c.program.ast, r.source, expression, r.toOriginal);
    return issues.length === 0 ? c : { error: { type: 'invalid', detail: COMPILATION_FAILED + issues.join('\n') } };
  }
  if (r.source === expression) return c;
  return { error: { type: c.error.type, detail: remapIssues(c.error.detail, r.source, expression, r.toOriginal) } };
}

/** JSONPatch's string fields given a value of another type (not dyn): cel-go's checker error, at the field's colon. */
function fieldTypeIssues(ast: AstNode, rewritten: string, original: string, toOriginal: (o: number) => number): string[] {
  const out: string[] = [];
  for (const n of walk(ast)) {
    if (n.op !== 'call' || !Array.isArray(n.args)) continue;
    const [fn, args] = n.args as [unknown, unknown];
    if (typeof fn !== 'string' || !fn.startsWith('__jsonpatch_field_') || !Array.isArray(args)) continue;
    const arg = args[0] as AstNode | undefined;
    const t = goTypeName(arg?.checkedType?.name);
    if (t === 'string' || t === 'dyn') continue;
    const field = fn.slice('__jsonpatch_field_'.length);
    out.push(formatIssue(original, toOriginal(goOffset(n, rewritten)), `expected type of field '${field}' is 'string' but provided type is '${t}'`));
  }
  return out;
}

/**
 * kube's CheckTypeNamesMatchFieldPathNames: an object under field `f` of a `T` must be a `T.f`
 * (lists and maps in between are transparent). The errors, in kube's words.
 */
export function typeNameMismatches(v: unknown, path: readonly string[] = []): string[] {
  if (v instanceof MutationObject) {
    const want = path.length === 0 ? v.typeName : path.join('.');
    const errs = want === v.typeName ? [] : [`unexpected type name "${v.typeName}", expected "${want}", which matches field name path from root Object type`];
    const base = path.length === 0 ? [v.typeName] : path;
    for (const [k, f] of v.fields) errs.push(...typeNameMismatches(f, [...base, k]));
    return errs;
  }
  if (Array.isArray(v)) return v.flatMap((x) => typeNameMismatches(x, path));
  if (v instanceof Map) return [...v.values()].flatMap((x) => typeNameMismatches(x, path));
  if (v !== null && typeof v === 'object' && v.constructor === Object) return Object.values(v).flatMap((x) => typeNameMismatches(x, path));
  return [];
}

/** A CEL value (objects built by constructions included) as JSON. */
export function patchValueToJSON(v: unknown): unknown {
  if (v instanceof MutationObject) {
    const o: Record<string, unknown> = {};
    for (const [k, f] of v.fields) o[k] = patchValueToJSON(f);
    return o;
  }
  if (Array.isArray(v)) return v.map(patchValueToJSON);
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) o[String(k)] = patchValueToJSON(x);
    return o;
  }
  if (v !== null && typeof v === 'object' && v.constructor === Object) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = patchValueToJSON(x);
    return o;
  }
  return fromCelValue(v);
}
