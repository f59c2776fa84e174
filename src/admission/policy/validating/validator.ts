// The evaluation of one compiled policy against one request and one param: match conditions,
// variables, validations with their messages, and audit annotations, under kube's runtime cost
// budget, as decisions the dispatcher applies with the binding's validation actions.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/policy/validating/validator.go and
// k8s.io/apiserver/pkg/admission/plugin/cel/{activation,condition,composition}.go.
import {
  admissionRequestType, authorizerValue, classOf, dynToCel, evaluateAsync, MaxEvaluatedMessageExpressionSizeBytes, namespaceType,
  nullObject, PerCallLimit, RuntimeCELCostBudget, RuntimeCELCostBudgetMatchConditions, toCelValue,
  type CelAuthorizer, type CelRequestResource, type CelUserInfo,
} from '../../../cel/index.ts';
import { variablesType, type CompiledExpression, type CompiledPolicy, type VariableType } from './compile.ts';

export interface PolicyDecision {
  readonly action: 'admit' | 'deny';
  readonly evaluation: 'admit' | 'deny' | 'error';
  readonly message: string;
  readonly reason?: string | undefined;
}

export interface PolicyAuditAnnotation {
  readonly key: string;
  readonly action: 'publish' | 'error' | 'exclude';
  readonly value?: string;
  readonly error?: string;
}

export interface ValidateResult {
  readonly decisions: readonly PolicyDecision[];
  readonly auditAnnotations: readonly PolicyAuditAnnotation[];
}

/** The inputs of an evaluation as JSON (the request's objects in the matched version). */
export interface ValidationInput {
  readonly object: unknown;
  readonly oldObject: unknown;
  readonly params: unknown;
  /** The AdmissionRequest (CreateAdmissionRequest) without objects. */
  readonly request: Readonly<Record<string, unknown>>;
  /** The request's namespace (CreateNamespaceObject), null for cluster-scoped requests. */
  readonly namespace: unknown;
  readonly user: CelUserInfo;
  readonly authorizer: CelAuthorizer;
  readonly requestResource: CelRequestResource;
}

export const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';
const requestType = admissionRequestType();
const nsType = namespaceType();

export class OutOfBudget extends Error {}

/** What an evaluation needs of a compiled policy (validating or mutating): its variables and match conditions. */
export type EvaluatedPolicy = Pick<CompiledPolicy, 'variables' | 'matchConditions' | 'failurePolicy'>;

/** One evaluation's state: the activation, the variables computed so far, what is left of the budget. */
export class Evaluation {
  private readonly values = new Map<string, { value?: unknown; error?: string }>();
  private readonly charged = new Set<string>();
  private readonly pendingCost = new Map<string, number>();
  readonly activation: Record<string, unknown>;

  constructor(private readonly policy: EvaluatedPolicy, input: ValidationInput, withAuthorizer: boolean) {
    const ns = input.namespace === null || input.namespace === undefined ? nullObject(nsType) : toCelValue(input.namespace, nsType);
    this.activation = {
      object: dynToCel(input.object ?? null), oldObject: dynToCel(input.oldObject ?? null), params: dynToCel(input.params ?? null),
      request: toCelValue(input.request, requestType), namespaceObject: ns,
    };
    if (withAuthorizer) this.activation.authorizer = authorizerValue(input.user, input.authorizer, input.requestResource);
  }

  /**
   * Variables are computed in order, before the expressions that read them (kube computes them
   * lazily; an error stays with the variable and fails only the expressions that read it). A
   * variable's cost is charged to the first expression that reads it.
   */
  async computeVariables(): Promise<void> {
    const declared: VariableType[] = [];
    const set: Record<string, unknown> = {};
    for (const v of this.policy.variables) {
      // The variable sees those declared before it: its environment's variables type.
      this.activation.variables = new (classOf(variablesType(declared)))({ ...set });
      declared.push({ name: v.name, type: v.type });
      if (v.program === undefined) {
        this.values.set(v.name, { error: `composited variable "${v.name}" fails to compile: ${v.error ?? ''}` });
        continue;
      }
      const failed = this.failedUse(v);
      if (failed !== undefined) { this.values.set(v.name, { error: `composited variable "${v.name}" fails to evaluate: ${failed}` }); continue; }
      const r = await evaluateAsync(v.program, this.activation, { costLimit: PerCallLimit });
      this.pendingCost.set(v.name, r.cost);
      if (r.error !== undefined) this.values.set(v.name, { error: `composited variable "${v.name}" fails to evaluate: ${r.error.detail}` });
      else { this.values.set(v.name, { value: r.value }); set[v.name] = r.value; }
    }
    this.activation.variables = new (classOf(variablesType(declared)))(set);
  }

  /** The error of the first failed variable an expression reads. */
  private failedUse(e: CompiledExpression): string | undefined {
    for (const u of e.uses) {
      const v = this.values.get(u);
      if (v?.error !== undefined) return v.error;
    }
    return undefined;
  }

  /** The cost of the variables `e` reads that no earlier expression has paid for. */
  private variablesCost(e: CompiledExpression): number {
    let cost = 0;
    for (const u of e.uses) {
      if (this.charged.has(u)) continue;
      this.charged.add(u);
      cost += this.pendingCost.get(u) ?? 0;
    }
    return cost;
  }

  /**
   * One expression as kube's activation.Evaluate: a value, or the error text; throws OutOfBudget
   * when the budget is spent (the whole evaluation then fails).
   */
  async run(e: CompiledExpression, budget: { left: number }, activation = this.activation): Promise<{ value?: unknown; error?: string }> {
    if (e.program === undefined) return { error: `compilation error: ${e.error ?? ''}` };
    const variablesCost = this.variablesCost(e);
    if (variablesCost > budget.left) throw new OutOfBudget(OUT_OF_BUDGET);
    budget.left -= variablesCost;
    const failed = this.failedUse(e);
    if (failed !== undefined) return { error: `expression '${e.expression}' resulted in error: ${failed}` };
    const r = await evaluateAsync(e.program, activation, { costLimit: Math.min(PerCallLimit, budget.left) });
    if (r.cost > budget.left || (r.costLimitExceeded === true && budget.left < PerCallLimit)) throw new OutOfBudget(OUT_OF_BUDGET);
    budget.left -= r.cost;
    if (r.error !== undefined) return { error: `expression '${e.expression}' resulted in error: ${r.error.detail}` };
    return { value: r.value };
  }
}

function noAuthorizer(a: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out = { ...a };
  delete out.authorizer;
  return out;
}

const errorAction = (failurePolicy: string): 'admit' | 'deny' => (failurePolicy === 'Ignore' ? 'admit' : 'deny');
const single = (failurePolicy: string, message: string): ValidateResult =>
  ({ decisions: [{ action: errorAction(failurePolicy), evaluation: 'error', message }], auditAnnotations: [] });

/** The match conditions (kube's matchconditions.Matcher): true, false, or the error under failurePolicy Fail. */
export async function matchConditions(p: EvaluatedPolicy, ev: Evaluation): Promise<boolean | string> {
  const errors: string[] = [];
  const budget = { left: RuntimeCELCostBudgetMatchConditions };
  // kube's matcher evaluates the conditions without the namespace (namespaceObject is null there).
  const namespaceObject = ev.activation.namespaceObject;
  ev.activation.namespaceObject = nullObject(nsType);
  try {
    for (const c of p.matchConditions) {
      const r = await ev.run(c, budget);
      if (r.error !== undefined) { errors.push(r.error); continue; }
      if (r.value === false) return false;
    }
  } catch (err) {
    if (!(err instanceof OutOfBudget)) throw err;
    return p.failurePolicy === 'Ignore' ? false : err.message;
  } finally {
    ev.activation.namespaceObject = namespaceObject;
  }
  if (errors.length === 0) return true;
  if (p.failurePolicy === 'Ignore') return false;
  return errors.length === 1 ? errors[0] ?? '' : `[${errors.join(', ')}]`;
}

/** A messageExpression's text when it gives a usable one: trimmed, one line, not too long. */
function messageOf(r: { value?: unknown; error?: string } | undefined): string {
  if (r === undefined || r.error !== undefined || typeof r.value !== 'string') return '';
  const m = r.value.trim();
  return m.length > MaxEvaluatedMessageExpressionSizeBytes || m.includes('\n') ? '' : m;
}

const typeNameOf = (v: unknown): string =>
  (typeof v === 'bigint' ? 'int' : typeof v === 'number' ? 'double' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'list' : v instanceof Map ? 'map' : typeof v);

export async function validate(p: CompiledPolicy, input: ValidationInput): Promise<ValidateResult> {
  const f = p.failurePolicy;
  const ev = new Evaluation(p, input, true);
  await ev.computeVariables();
  if (p.matchConditions.length > 0) {
    const m = await matchConditions(p, ev);
    if (m === false) return { decisions: [], auditAnnotations: [] };
    if (typeof m === 'string') return single(f, m);
  }
  const decisions: PolicyDecision[] = [];
  const budget = { left: RuntimeCELCostBudget };
  try {
    const results = [];
    for (const v of p.validations) results.push(await ev.run(v, budget));
    // Messages are evaluated after all validations, on what is left of the budget, without the authorizer.
    const messages: ({ value?: unknown; error?: string } | undefined)[] = [];
    let messageBudgetError: string | undefined;
    const noAuthz = noAuthorizer(ev.activation);
    for (const v of p.validations) {
      if (v.messageExpression === undefined || messageBudgetError !== undefined) { messages.push(undefined); continue; }
      try { messages.push(await ev.run(v.messageExpression, budget, noAuthz)); } catch (err) {
        if (!(err instanceof OutOfBudget)) throw err;
        messageBudgetError = err.message;
        messages.push(undefined);
      }
    }
    for (const [i, v] of p.validations.entries()) {
      const r = results[i] ?? {};
      if (r.error !== undefined) { decisions.push({ action: errorAction(f), evaluation: 'error', message: r.error }); continue; }
      if (messageBudgetError !== undefined) {
        decisions.push({ action: errorAction(f), evaluation: 'error', message: `failed messageExpression: ${messageBudgetError}` });
        continue;
      }
      if (r.value === true) { decisions.push({ action: 'admit', evaluation: 'admit', message: '' }); continue; }
      let message = messageOf(messages[i]);
      if (message === '' && v.message !== '') message = v.message.trim();
      if (message === '') message = `failed expression: ${v.expression.trim()}`;
      decisions.push({ action: 'deny', evaluation: 'deny', message, reason: v.reason ?? 'Invalid' });
    }
  } catch (err) {
    if (!(err instanceof OutOfBudget)) throw err;
    return single(f, err.message);
  }
  try {
    return { decisions, auditAnnotations: await auditAnnotations(p, ev) };
  } catch (err) {
    if (!(err instanceof OutOfBudget)) throw err;
    return single(f, err.message);
  }
}

async function auditAnnotations(p: CompiledPolicy, ev: Evaluation): Promise<PolicyAuditAnnotation[]> {
  const out: PolicyAuditAnnotation[] = [];
  const onError = p.failurePolicy === 'Ignore' ? 'exclude' : 'error';
  const budget = { left: RuntimeCELCostBudget };
  for (const a of p.auditAnnotations) {
    // Without the authorizer, as kube binds them; running out of budget fails the whole evaluation.
    const r = await ev.run(a, budget, noAuthorizer(ev.activation));
    if (r.error !== undefined) { out.push({ key: a.key, action: onError, error: r.error }); continue; }
    if (r.value === null) { out.push({ key: a.key, action: 'exclude' }); continue; }
    if (typeof r.value === 'string') {
      const value = r.value.trim();
      out.push(value === '' ? { key: a.key, action: 'exclude' } : { key: a.key, action: 'publish', value });
      continue;
    }
    out.push({ key: a.key, action: 'error', error: `valueExpression '${a.expression}' resulted in unsupported return type: ${typeNameOf(r.value)}. Return type must be either string or null.` });
  }
  return out;
}
