// The Webhook authorizer: asks a remote service with a SubjectAccessReview (v1 or v1beta1) what
// the requester may do, after its matchConditions let the request through; answers are cached
// (allowed for authorizedTTL, not allowed for unauthorizedTTL); a failed call is tried again on
// errors worth retrying and then answered with the failurePolicy's decision and the error.
// Counterpart of k8s.io/apiserver/plugin/pkg/authorizer/webhook/webhook.go.
import { parseFieldSelector } from '../apimachinery/fields/selector.ts';
import { parseSelector } from '../apimachinery/labels/parser.ts';
import type { Program } from '../cel/index.ts';
import {
  DEFAULT_AUTH_WEBHOOK_BACKOFF, withExponentialBackoff, type Backoff, type WebhookClient,
} from '../webhook/index.ts';
import type { Attributes, AuthorizationResult, Authorizer, RuleResolver, RulesResult } from './authorizer.ts';
import { evalMatchConditions, type SubjectAccessReviewSpec } from './match-conditions.ts';

/** Beyond this many bytes of requester-controlled attributes a decision is not cached (a DoS guard). */
const MAX_CONTROLLED_ATTR_CACHE_SIZE = 10_000;
/** The LRU size of the decision cache. */
const CACHE_SIZE = 8192;

export type SubjectAccessReviewVersion = 'v1' | 'v1beta1';

export interface WebhookAuthorizerOptions {
  readonly client: WebhookClient;
  readonly version: SubjectAccessReviewVersion;
  /** 0: allowed decisions are not cached. */
  readonly authorizedTTLMs: number;
  /** 0: other decisions are not cached. */
  readonly unauthorizedTTLMs: number;
  /** The per-call timeout (the webhook's `timeout`; 30s from the legacy flags). */
  readonly timeoutMs: number;
  /** failurePolicy: NoOpinion (the legacy flags) or Deny. */
  readonly decisionOnError: 'NoOpinion' | 'Deny';
  readonly matchConditions?: readonly Program[];
  readonly backoff?: Backoff;
  /** Milliseconds; default the clock. */
  now?(): number;
}

interface Status { readonly allowed: boolean; readonly denied: boolean; readonly reason: string }

interface SelectorRequirement { readonly key: string; readonly operator: string; readonly values?: readonly string[] }

/** A list's field selector as requirements (In / NotIn); none when it does not parse. */
function fieldSelectorRequirements(raw: string): SelectorRequirement[] {
  if (raw === '') return [];
  try {
    return parseFieldSelector(raw).requirements.map((r) => ({ key: r.field, operator: r.operator === '=' ? 'In' : 'NotIn', values: [r.value] }));
  } catch {
    return [];
  }
}

const LABEL_OPERATORS: Readonly<Partial<Record<string, string>>> = {
  '=': 'In', '==': 'In', in: 'In', '!=': 'NotIn', notin: 'NotIn', exists: 'Exists', '!': 'DoesNotExist',
};

/** A list's label selector as requirements; gt and lt have no counterpart and are left out. */
function labelSelectorRequirements(raw: string): SelectorRequirement[] {
  if (raw === '') return [];
  try {
    return (parseSelector(raw).requirements ?? []).flatMap((r) => {
      const operator = LABEL_OPERATORS[r.operator];
      return operator === undefined ? [] : [{ key: r.key, operator, ...(r.values.length > 0 ? { values: [...r.values] } : {}) }];
    });
  } catch {
    return [];
  }
}

/** The spec the webhook receives (and the cache key): user, then the request's attributes. */
export function subjectAccessReviewSpec(a: Attributes): SubjectAccessReviewSpec {
  const spec: SubjectAccessReviewSpec = {};
  if (a.user !== undefined) {
    if (a.user.name !== '') spec.user = a.user.name;
    if (a.user.groups.length > 0) spec.groups = [...a.user.groups];
    if (a.user.extra !== undefined && Object.keys(a.user.extra).length > 0) {
      spec.extra = Object.fromEntries(Object.entries(a.user.extra).map(([k, v]) => [k, [...v]]));
    }
    if (a.user.uid !== undefined && a.user.uid !== '') spec.uid = a.user.uid;
  }
  if (a.resourceRequest) {
    // omitempty: only the attributes that are set go on the wire.
    const ra: Record<string, string> = {};
    const put = (k: string, v: string): void => { if (v !== '') ra[k] = v; };
    put('namespace', a.namespace); put('verb', a.verb); put('group', a.apiGroup); put('version', a.apiVersion);
    put('resource', a.resource); put('subresource', a.subresource); put('name', a.name);
    const resourceAttributes: Record<string, unknown> = ra;
    const fieldRequirements = fieldSelectorRequirements(a.fieldSelector ?? '');
    if (fieldRequirements.length > 0) resourceAttributes['fieldSelector'] = { requirements: fieldRequirements };
    const labelRequirements = labelSelectorRequirements(a.labelSelector ?? '');
    if (labelRequirements.length > 0) resourceAttributes['labelSelector'] = { requirements: labelRequirements };
    spec.resourceAttributes = resourceAttributes;
  } else {
    spec.nonResourceAttributes = { path: a.path, verb: a.verb };
  }
  return spec;
}

/** The review as the webhook's version has it (v1beta1 names the groups `group`). */
function reviewBody(version: SubjectAccessReviewVersion, spec: SubjectAccessReviewSpec): Record<string, unknown> {
  let wire: Record<string, unknown> = { ...spec };
  if (version === 'v1beta1' && spec.groups !== undefined) {
    const { groups, ...rest } = spec;
    wire = { ...rest, group: groups };
  }
  return {
    kind: 'SubjectAccessReview', apiVersion: `authorization.k8s.io/${version}`, metadata: {},
    spec: wire, status: { allowed: false },
  };
}

function statusOf(review: Record<string, unknown>): Status {
  const s = review['status'];
  const o = typeof s === 'object' && s !== null && !Array.isArray(s) ? s as Record<string, unknown> : {};
  return { allowed: o['allowed'] === true, denied: o['denied'] === true, reason: typeof o['reason'] === 'string' ? o['reason'] : '' };
}

const shouldCache = (a: Attributes): boolean =>
  a.namespace.length + a.verb.length + a.apiGroup.length + a.apiVersion.length + a.resource.length + a.subresource.length
    + a.name.length + a.path.length < MAX_CONTROLLED_ATTR_CACHE_SIZE;

export class WebhookAuthorizer implements Authorizer, RuleResolver {
  readonly #opts: WebhookAuthorizerOptions;
  readonly #cache = new Map<string, { status: Status; expires: number }>();
  readonly #now: () => number;

  constructor(opts: WebhookAuthorizerOptions) {
    this.#opts = opts;
    this.#now = opts.now ?? Date.now;
  }

  async authorize(a: Attributes): Promise<AuthorizationResult> {
    const o = this.#opts;
    const spec = subjectAccessReviewSpec(a);
    const onError = (error: Error): AuthorizationResult => ({ decision: o.decisionOnError, reason: '', error });
    if (o.matchConditions !== undefined && o.matchConditions.length > 0) {
      try {
        if (!evalMatchConditions(o.matchConditions, spec)) return { decision: 'NoOpinion', reason: '' };
      } catch (err) {
        return onError(err instanceof Error ? err : new Error(String(err)));
      }
    }
    const key = JSON.stringify(spec);
    let status = this.#cached(key);
    if (status === undefined) {
      try {
        const review = await withExponentialBackoff(o.backoff ?? DEFAULT_AUTH_WEBHOOK_BACKOFF,
          () => o.client.post(reviewBody(o.version, spec), { timeoutMs: o.timeoutMs }));
        status = statusOf(review);
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        console.error(`Failed to make webhook authorizer request: ${error.message}`);
        return onError(error);
      }
      if (shouldCache(a)) this.#remember(key, status);
    }
    if (status.denied && status.allowed) {
      return { decision: 'Deny', reason: status.reason, error: new Error('webhook subject access review returned both allow and deny response') };
    }
    if (status.denied) return { decision: 'Deny', reason: status.reason };
    if (status.allowed) return { decision: 'Allow', reason: status.reason };
    return { decision: 'NoOpinion', reason: status.reason };
  }

  /** A webhook cannot list what it would allow. */
  rulesFor(): Promise<RulesResult> {
    return Promise.resolve({
      resourceRules: [], nonResourceRules: [], incomplete: true,
      error: new Error('webhook authorizer does not support user rule resolution'),
    });
  }

  #cached(key: string): Status | undefined {
    const hit = this.#cache.get(key);
    if (hit === undefined) return undefined;
    if (hit.expires <= this.#now()) {
      this.#cache.delete(key);
      return undefined;
    }
    // LRU: a hit moves to the young end.
    this.#cache.delete(key);
    this.#cache.set(key, hit);
    return hit.status;
  }

  #remember(key: string, status: Status): void {
    const ttl = status.allowed ? this.#opts.authorizedTTLMs : this.#opts.unauthorizedTTLMs;
    if (ttl <= 0) return;
    this.#cache.delete(key);
    this.#cache.set(key, { status, expires: this.#now() + ttl });
    if (this.#cache.size > CACHE_SIZE) {
      const oldest = this.#cache.keys().next();
      if (oldest.done !== true) this.#cache.delete(oldest.value);
    }
  }
}
