// --authorization-config: an AuthorizationConfiguration (apiserver.config.k8s.io v1, v1beta1 or
// v1alpha1; YAML or JSON, decoded strictly, defaulted) naming the authorizer chain in order:
// Node, RBAC, AlwaysAllow, AlwaysDeny and any number of Webhooks with their connection, timeout,
// SubjectAccessReview version, failurePolicy, cache TTLs and matchConditions. The legacy flags
// (--authorization-mode, --authorization-webhook-*) build the same structure.
// Counterpart of k8s.io/apiserver/pkg/apis/apiserver (types, v1 defaults),
// pkg/kubeapiserver/authorizer (LoadAndValidateFile) and options/authorization.go.
import { readFileSync } from 'node:fs';
import { walkValue, yamlToJSON, type Shape } from '../apimachinery/fieldvalidation/index.ts';
import { goPathError, goQuote } from '../apimachinery/goformat/index.ts';
import { parseDuration } from '../apimachinery/runtime/serializer/protobuf/well-known.ts';
import { formatFieldError } from '../apimachinery/errors/field-errors.ts';
import { validateAuthorizationConfiguration } from './authorization-config-validation.ts';
import type { Program } from '../cel/index.ts';
import type { AuthorizationConfiguration, AuthorizerConfiguration, WebhookConfiguration } from './authorization-config-types.ts';

export type { AuthorizationConfiguration, AuthorizerConfiguration, WebhookConfiguration, WebhookMatchCondition } from './authorization-config-types.ts';

/** A validated configuration, with each webhook's compiled matchConditions by authorizer index. */
export interface LoadedAuthorizationConfiguration extends AuthorizationConfiguration {
  readonly matchConditions: ReadonlyMap<number, readonly Program[]>;
}

const VERSIONS = new Set(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1beta1', 'apiserver.config.k8s.io/v1alpha1']);

const str: Shape = { kind: 'scalar', goName: 'string', json: 'string' };
const bool: Shape = { kind: 'scalar', goName: 'bool', json: 'boolean' };
const duration: Shape = { kind: 'scalar', goName: 'v1.Duration', json: 'string' };
const struct = (goName: string, fields: Readonly<Record<string, Shape>>): Shape =>
  ({ kind: 'struct', goName, preserveUnknown: false, fields: (n) => fields[n] });
const slice = (goName: string, elem: Shape): Shape => ({ kind: 'slice', goName, elem: () => elem });

const WEBHOOK_SHAPE = struct('apiserver.WebhookConfiguration', {
  authorizedTTL: duration, cacheAuthorizedRequests: bool, unauthorizedTTL: duration, cacheUnauthorizedRequests: bool,
  timeout: duration, subjectAccessReviewVersion: str, matchConditionSubjectAccessReviewVersion: str, failurePolicy: str,
  connectionInfo: struct('apiserver.WebhookConnectionInfo', { type: str, kubeConfigFile: str }),
  matchConditions: slice('[]apiserver.WebhookMatchCondition', struct('apiserver.WebhookMatchCondition', { expression: str })),
});
const CONFIG_SHAPE = struct('apiserver.AuthorizationConfiguration', {
  apiVersion: str, kind: str,
  authorizers: slice('[]apiserver.AuthorizerConfiguration', struct('apiserver.AuthorizerConfiguration', { type: str, name: str, webhook: WEBHOOK_SHAPE })),
});

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const s = (o: Obj, k: string): string => (typeof o[k] === 'string' ? o[k] : '');
const ms = (o: Obj, k: string): number => (typeof o[k] === 'string' ? parseDuration(o[k]) / 1e6 : 0);

/** The webhook as decoded with v1's defaults (authorizedTTL 5m, unauthorizedTTL 30s, caching on). */
function webhookOf(w: Obj): WebhookConfiguration {
  const ci = isObj(w['connectionInfo']) ? w['connectionInfo'] : {};
  const authorizedTTLMs = ms(w, 'authorizedTTL');
  const unauthorizedTTLMs = ms(w, 'unauthorizedTTL');
  return {
    authorizedTTLMs: authorizedTTLMs === 0 ? 300_000 : authorizedTTLMs,
    cacheAuthorizedRequests: w['cacheAuthorizedRequests'] !== false,
    unauthorizedTTLMs: unauthorizedTTLMs === 0 ? 30_000 : unauthorizedTTLMs,
    cacheUnauthorizedRequests: w['cacheUnauthorizedRequests'] !== false,
    timeoutMs: ms(w, 'timeout'),
    subjectAccessReviewVersion: s(w, 'subjectAccessReviewVersion'),
    matchConditionSubjectAccessReviewVersion: s(w, 'matchConditionSubjectAccessReviewVersion'),
    failurePolicy: s(w, 'failurePolicy'),
    connectionInfo: { type: s(ci, 'type'), ...(typeof ci['kubeConfigFile'] === 'string' ? { kubeConfigFile: ci['kubeConfigFile'] } : {}) },
    matchConditions: (Array.isArray(w['matchConditions']) ? w['matchConditions'] : []).filter(isObj).map((m) => ({ expression: s(m, 'expression') })),
  };
}

/** Decodes the text of a configuration file; throws kube's decoding errors (without its prefix). */
export function decodeAuthorizationConfiguration(text: string): AuthorizationConfiguration {
  const { value } = yamlToJSON(text, false);
  const obj = isObj(value) ? value : {};
  const apiVersion = s(obj, 'apiVersion');
  const kind = s(obj, 'kind');
  if (kind === '') throw new Error(`Object 'Kind' is missing in '${text}'`);
  if (apiVersion === '') throw new Error(`Object 'apiVersion' is missing in '${text}'`);
  if (!VERSIONS.has(apiVersion) || kind !== 'AuthorizationConfiguration') {
    throw new Error(`no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme "pkg/runtime/scheme.go:111"`);
  }
  const w = walkValue(structuredClone(value), CONFIG_SHAPE, false);
  if (w.typeError !== undefined) throw new Error(w.typeError);
  if (w.unknownFields.length > 0) throw new Error(`strict decoding error: ${w.unknownFields.join(', ')}`);
  const authorizers = (Array.isArray(obj['authorizers']) ? obj['authorizers'] : []).filter(isObj).map((a): AuthorizerConfiguration => ({
    type: s(a, 'type'), name: s(a, 'name'), ...(isObj(a['webhook']) ? { webhook: webhookOf(a['webhook']) } : {}),
  }));
  return { authorizers };
}

/**
 * LoadAndValidateFile: reads, decodes and validates `path`. Throws kube's start-up error:
 * `open <path>: no such file or directory`, `failed to load AuthorizationConfiguration from file:
 * ...`, or the field errors joined as `[a, b]`.
 */
export function loadAuthorizationConfigurationFile(path: string): LoadedAuthorizationConfiguration {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(goPathError('open', path, err));
  }
  return loadAndValidateAuthorizationData(text);
}

/** Go's utilerrors aggregate text: one message alone, several de-duplicated in brackets. */
function aggregate(messages: readonly string[]): Error {
  const msgs = [...new Set(messages)];
  return new Error(msgs.length === 1 ? msgs[0] ?? '' : `[${msgs.join(', ')}]`);
}

/**
 * LoadAndValidateData: decodes and validates a configuration, then checks that each non-webhook
 * authorizer has its type's name (`rbac` for RBAC) and that every type of
 * `requireNonWebhookTypes` (a reload's: the start-up file's) is still there.
 */
export function loadAndValidateAuthorizationData(text: string, requireNonWebhookTypes: ReadonlySet<string> = new Set()): LoadedAuthorizationConfiguration {
  let config: AuthorizationConfiguration;
  try {
    config = decodeAuthorizationConfiguration(text);
  } catch (err) {
    throw new Error(`failed to load AuthorizationConfiguration from file: ${(err as Error).message}`);
  }
  const { errors, matchConditions } = validateAuthorizationConfiguration(config);
  if (errors.length > 0) throw aggregate(errors.map(formatFieldError));
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const a of config.authorizers) {
    if (a.type === 'Webhook') continue;
    seen.add(a.type);
    const expected = a.type.toLowerCase();
    if (a.name !== expected) problems.push(`expected name ${expected} for authorizer ${a.type} instead of ${a.name}`);
  }
  const missing = [...requireNonWebhookTypes].filter((t) => !seen.has(t)).sort();
  if (missing.length > 0) problems.push(`missing required types: [${missing.join(' ')}]`);
  if (problems.length > 0) throw aggregate(problems);
  return { ...config, matchConditions };
}
