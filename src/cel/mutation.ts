// Compiling MutatingAdmissionPolicy mutations (kube's HasPatchTypes environments) and reading
// what they return: object constructions rewritten and compiled, errors located in the original
// text, constructed objects checked against their field paths and turned into JSON.
// Go counterparts: k8s.io/apiserver/pkg/admission/plugin/cel/compile.go (hasPatchTypes),
// k8s.io/apiserver/pkg/cel/mutation/dynamic/objects.go (CheckTypeNamesMatchFieldPathNames, ConvertToNative).
import { compile, COMPILATION_FAILED, type CompileResult } from './compile.ts';
import { newEnvironment, type VariableDecl } from './environment.ts';
import { formatIssue } from './errors.ts';
import { rewriteObjectConstruction, typeNameOfConstructor } from './mutation-rewrite.ts';
import { MutationObject } from './mutation-types.ts';
import { fromCelValue } from './values.ts';

/** Re-points cel-go style issues (`ERROR: <input>:L:C: msg` + source line + caret) at the original text. */
function remapIssues(detail: string, rewritten: string, original: string, toOriginal: (o: number) => number): string {
  const lineStarts = [0];
  for (let i = 0; i < rewritten.length; i++) if (rewritten[i] === '\n') lineStarts.push(i + 1);
  const body = detail.startsWith(COMPILATION_FAILED) ? detail.slice(COMPILATION_FAILED.length) : detail;
  const issues = [...body.matchAll(/ERROR: <input>:(\d+):(\d+): ([^\n]*)\n \| [^\n]*\n \| \.*\^/g)];
  if (issues.length === 0) return detail;
  const out = issues.map((m) => {
    const offset = (lineStarts[Number(m[1]) - 1] ?? 0) + Number(m[2]) - 1;
    const message = (m[3] ?? '').replace(/__new_[A-Za-z0-9_]+/g, (fn) => typeNameOfConstructor(fn));
    return formatIssue(original, toOriginal(offset), message);
  });
  return (detail.startsWith(COMPILATION_FAILED) ? COMPILATION_FAILED : '') + out.join('\n');
}

/**
 * Compiles `expression` with `variables` and kube's patch types (HasPatchTypes): object
 * constructions allowed, errors located in the original text.
 */
export function compileWithPatchTypes(expression: string, variables: readonly VariableDecl[]): CompileResult {
  const r = rewriteObjectConstruction(expression);
  const env = newEnvironment(variables, { patchTypes: r.typeNames });
  const c = compile(r.source, env);
  if (c.error === undefined || r.source === expression) return c;
  return { error: { type: c.error.type, detail: remapIssues(c.error.detail, r.source, expression, r.toOriginal) } };
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
