// The plugin's configuration: PodSecurityConfiguration (pod-security.admission.config.k8s.io
// v1, v1beta1 and v1alpha1, identical) from --admission-control-config-file, with its defaults
// (privileged:latest for every mode) and kube's validation of the exemptions.
// Counterpart of k8s.io/pod-security-admission/admission/api (types.go, helpers.go, v1/defaults.go,
// load/load.go, validation/validation.go).
import {
  aggregateMessages, duplicate, fieldPath, formatFieldError, invalid, type FieldError,
} from '../../../apimachinery/errors/field-errors.ts';
import { yamlToJSON } from '../../../apimachinery/fieldvalidation/index.ts';
import { nameIsDNSSubdomain, validateNamespaceName } from '../../../apimachinery/validation/object-meta.ts';
import { AdmissionInitializationError } from '../../initialization-error.ts';
import { parseLevel, parseVersion, PRIVILEGED_POLICY, type Policy } from './api.ts';

export interface PodSecurityExemptions {
  readonly usernames: readonly string[];
  readonly namespaces: readonly string[];
  readonly runtimeClasses: readonly string[];
}

export interface PodSecurityConfiguration {
  /** The policy of a namespace without PodSecurity labels. */
  readonly defaults: Policy;
  readonly exemptions: PodSecurityExemptions;
}

export const DEFAULT_POD_SECURITY_CONFIGURATION: PodSecurityConfiguration = {
  defaults: PRIVILEGED_POLICY, exemptions: { usernames: [], namespaces: [], runtimeClasses: [] },
};

export const POD_SECURITY_CONFIG_GROUP = 'pod-security.admission.config.k8s.io';
const VERSIONS = ['v1', 'v1beta1', 'v1alpha1'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function strings(v: unknown, what: string): string[] {
  if (v == null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new Error(`PodSecurityConfiguration: ${what} must be a list of strings`);
  return v as string[];
}

function unique(list: readonly string[], path: string, check: (s: string) => string[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, s] of list.entries()) {
    const p = fieldPath('exemptions', path).index(i);
    const problems = check(s);
    if (problems.length > 0) errs.push(invalid(p, s, problems.join(', ')));
    else if (seen.has(s)) errs.push(duplicate(p, s));
    else seen.add(s);
  }
  return errs;
}

/**
 * The configuration an AdmissionConfiguration gives the PodSecurity plugin (its `configuration`
 * object, or the file its `path` names, parsed); undefined means none, so the defaults. Throws
 * an Error naming what is wrong, which stops start-up as kube-apiserver's does.
 */
export function parsePodSecurityConfiguration(raw: unknown): PodSecurityConfiguration {
  if (raw == null) return DEFAULT_POD_SECURITY_CONFIGURATION;
  if (!isObj(raw)) throw new Error('expected PodSecurityConfiguration, got a non-object');
  const apiVersion = typeof raw['apiVersion'] === 'string' ? raw['apiVersion'] : '';
  const kind = typeof raw['kind'] === 'string' ? raw['kind'] : '';
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  if (group !== POD_SECURITY_CONFIG_GROUP || !VERSIONS.includes(version ?? '') || kind !== 'PodSecurityConfiguration') {
    throw new Error(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/runtime/scheme.go:111"`);
  }
  const d = isObj(raw['defaults']) ? raw['defaults'] : {};
  const e = isObj(raw['exemptions']) ? raw['exemptions'] : {};
  const value = (k: string, fallback: string): string => {
    const v = d[k];
    if (v != null && typeof v !== 'string') throw new Error(`PodSecurityConfiguration: defaults.${k} must be a string`);
    return v == null || v === '' ? fallback : v;
  };
  const levels = { enforce: value('enforce', 'privileged'), audit: value('audit', 'privileged'), warn: value('warn', 'privileged') };
  const versions = { enforce: value('enforce-version', 'latest'), audit: value('audit-version', 'latest'), warn: value('warn-version', 'latest') };
  const exemptions = {
    usernames: strings(e['usernames'], 'exemptions.usernames'),
    namespaces: strings(e['namespaces'], 'exemptions.namespaces'),
    runtimeClasses: strings(e['runtimeClasses'], 'exemptions.runtimeClasses'),
  };
  // CompleteConfiguration's ToPolicy reports bad levels and versions first, by name; only then
  // does validation look at the exemptions.
  const policyErrors: string[] = [];
  for (const mode of ['enforce', 'audit', 'warn'] as const) {
    const l = parseLevel(levels[mode]);
    if (l.error !== undefined) policyErrors.push(`${mode}: ${l.error}`);
    const v = parseVersion(versions[mode]);
    if (v.error !== undefined) policyErrors.push(`${mode}-version: ${v.error}`);
  }
  if (policyErrors.length > 0) throw new AdmissionInitializationError(`PodSecurity configuration error: ${aggregateMessages(policyErrors)}`);
  const errs: FieldError[] = [
    ...unique(exemptions.namespaces, 'namespaces', (s) => validateNamespaceName(s, false)),
    ...unique(exemptions.runtimeClasses, 'runtimeClasses', (s) => nameIsDNSSubdomain(s, false)),
    ...unique(exemptions.usernames, 'usernames', (s) => s === '' ? ['username must not be empty'] : []),
  ];
  if (errs.length > 0) throw new AdmissionInitializationError(`PodSecurity invalid: ${aggregateMessages(errs.map(formatFieldError))}`);
  const lv = (mode: 'enforce' | 'audit' | 'warn'): Policy['enforce'] =>
    ({ level: parseLevel(levels[mode]).level, version: parseVersion(versions[mode]).version });
  return { defaults: { enforce: lv('enforce'), audit: lv('audit'), warn: lv('warn') }, exemptions };
}

/**
 * The same from the raw text (YAML or JSON) the AdmissionConfiguration reader hands each plugin;
 * undefined means the plugin has no configuration.
 */
export function parsePodSecurityConfigurationText(text: string | undefined): PodSecurityConfiguration {
  if (text === undefined) return DEFAULT_POD_SECURITY_CONFIGURATION;
  const value = yamlToJSON(text, false).value;
  // The decoder's texts for an object that does not say what it is.
  if (isObj(value) && (typeof value['kind'] !== 'string' || value['kind'] === '')) throw new Error(`Object 'Kind' is missing in '${text}'`);
  if (isObj(value) && (typeof value['apiVersion'] !== 'string' || value['apiVersion'] === '')) throw new Error(`Object 'apiVersion' is missing in '${text}'`);
  return parsePodSecurityConfiguration(value);
}
