// Type checking of a ValidatingAdmissionPolicy against the kinds it matches: each validation's
// expression and messageExpression compiled with `object`/`oldObject` typed from the schema of each
// kind its resourceRules name (at most 10, no wildcards) and `params` from the paramKind's schema;
// what does not compile becomes a warning the status controller writes to status.typeChecking.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/policy/validating/typechecking.go.
import type { GroupVersionKind, GroupVersionResource } from '../../../apimachinery/schema/group-version.ts';
import {
  admissionRequestType, assignTypeNames, AuthorizerType, compile, COMPILATION_FAILED, DynType, namespaceType, newEnvironment,
  schemaDeclType, type CelSchema, type DeclType, type VariableDecl,
} from '../../../cel/index.ts';
import { outputDeclType, variablesType, type VariableType } from './compile.ts';
import type { ExpressionWarning, ValidatingAdmissionPolicy } from '../../../generated/types/admissionregistrationv1.gen.ts';

export interface TypeCheckDeps {
  /** RESTMapper.KindsFor: the kinds served as the resource; none when it is not served. */
  kindsFor(gvr: GroupVersionResource): readonly GroupVersionKind[];
  /** The kind's OpenAPI schema with references resolved; undefined when there is none. */
  schemaFor(gvk: GroupVersionKind): CelSchema | undefined;
}

const MAX_TYPES_TO_CHECK = 10;
const requestType = admissionRequestType();
const nsType = namespaceType();

const gvkString = (g: GroupVersionKind): string => `${g.group}/${g.version}, Kind=${g.kind}`;
const compareGVK = (a: GroupVersionKind, b: GroupVersionKind): number =>
  (a.group !== b.group ? (a.group < b.group ? -1 : 1) : a.version !== b.version ? (a.version < b.version ? -1 : 1) : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);

/** typesToCheck: the kinds of the rules' group × version × resource, wildcards and subresources left out. */
export function typesToCheck(policy: ValidatingAdmissionPolicy, deps: TypeCheckDeps): GroupVersionKind[] {
  const found = new Map<string, GroupVersionKind>();
  for (const rule of policy.spec?.matchConstraints?.resourceRules ?? []) {
    const groups = rule.apiGroups ?? [];
    const versions = rule.apiVersions ?? [];
    if (groups.length === 0 || groups.some((g) => g.includes('*')) || versions.length === 0 || versions.some((v) => v.includes('*'))) continue;
    const resources = (rule.resources ?? []).filter((r) => !/[*/]/.test(r));
    if (resources.length === 0) continue;
    let count = 0;
    for (const group of [...groups].sort()) {
      for (const version of [...versions].sort()) {
        for (const resource of [...resources].sort()) {
          for (const k of deps.kindsFor({ group, version, resource })) {
            found.set(gvkString(k), k);
            if (++count === MAX_TYPES_TO_CHECK) return [...found.values()].sort(compareGVK);
          }
        }
      }
    }
  }
  return [...found.values()].sort(compareGVK);
}

/**
 * A kind's type, named as kube names it: the kind and a number (kube's is the clock's nanoseconds;
 * here 0 for the object, 1 for params, so that the two never collide and equal schemas share an
 * environment).
 */
function declType(deps: TypeCheckDeps, gvk: GroupVersionKind | undefined, n: number): DeclType | undefined {
  if (gvk === undefined) return undefined;
  const s = deps.schemaFor(gvk);
  const t = s === undefined ? undefined : schemaDeclType(s, true);
  return t === undefined ? undefined : assignTypeNames(t, `${gvk.kind}${String(n)}`);
}

function paramsGVK(policy: ValidatingAdmissionPolicy): GroupVersionKind | undefined {
  const pk = policy.spec?.paramKind;
  if (pk === undefined) return undefined;
  const av = pk.apiVersion ?? '';
  if (av.split('/').length > 2) return undefined;
  const slash = av.indexOf('/');
  return { group: slash < 0 ? '' : av.slice(0, slash), version: slash < 0 ? av : av.slice(slash + 1), kind: pk.kind ?? '' };
}

/** The problems of one expression for each kind, in kube's words (`<gvk>: <issues>\n`, joined by newlines). */
function checkExpression(expression: string, envs: readonly { gvk: GroupVersionKind; vars: readonly VariableDecl[] }[]): string {
  const out: string[] = [];
  for (const e of envs) {
    const r = compile(expression, newEnvironment(e.vars));
    if (r.error === undefined) continue;
    const issues = r.error.detail.startsWith(COMPILATION_FAILED) ? r.error.detail.slice(COMPILATION_FAILED.length) : r.error.detail;
    out.push(r.error.type === 'invalid' ? `${gvkString(e.gvk)}: ${issues}\n` : `${gvkString(e.gvk)}: type checking error: ${issues}\n`);
  }
  return out.join('\n');
}

/** TypeChecker.Check: the warnings of the policy's validations and messages. */
export function typeCheck(policy: ValidatingAdmissionPolicy, deps: TypeCheckDeps): ExpressionWarning[] {
  const pgvk = paramsGVK(policy);
  const params = declType(deps, pgvk, 1);
  const envs: { gvk: GroupVersionKind; vars: VariableDecl[] }[] = [];
  for (const gvk of typesToCheck(policy, deps)) {
    const object = declType(deps, gvk, 0);
    if (object === undefined) continue;
    const base: VariableDecl[] = [
      { name: 'namespaceObject', type: nsType }, { name: 'request', type: requestType },
      { name: 'object', type: object }, { name: 'oldObject', type: object }, { name: 'authorizer', type: AuthorizerType },
    ];
    if (pgvk !== undefined) base.push({ name: 'params', type: params ?? DynType });
    // Variables typed by their expressions against this kind, each seeing those before it.
    const declared: VariableType[] = [];
    for (const v of policy.spec?.variables ?? []) {
      const r = compile(v.expression, newEnvironment([...base, { name: 'variables', type: variablesType(declared) }]));
      declared.push({ name: v.name, type: r.program === undefined ? DynType : outputDeclType(r.program.outputType) });
    }
    envs.push({ gvk, vars: [...base, { name: 'variables', type: variablesType(declared) }] });
  }
  const warnings: ExpressionWarning[] = [];
  (policy.spec?.validations ?? []).forEach((v, i) => {
    const w = checkExpression(v.expression, envs);
    if (w !== '') warnings.push({ fieldRef: `spec.validations[${String(i)}].expression`, warning: w });
    if ((v.messageExpression ?? '') === '') return;
    const m = checkExpression(v.messageExpression ?? '', envs);
    if (m !== '') warnings.push({ fieldRef: `spec.validations[${String(i)}].messageExpression`, warning: m });
  });
  return warnings;
}
