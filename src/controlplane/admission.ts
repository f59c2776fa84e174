// The admission chain: kube-apiserver's ordered plugin list, its default-on set,
// --enable-admission-plugins / --disable-admission-plugins and --admission-control-config-file.
// The chain holds the enabled plugins kapi implements; enabling one it does not stops start-up.
// Counterpart of pkg/kubeapiserver/options/plugins.go and
// k8s.io/apiserver/pkg/server/options/admission.go.
import { isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import { AdmissionChain, type Plugin } from '../admission/interfaces.ts';
import { defaultTolerationSeconds } from '../admission/plugins/default-toleration-seconds.ts';
import { namespaceLifecycle, type NamespaceLookup } from '../admission/plugins/namespace-lifecycle.ts';
import { priorityAdmission, type PriorityClassInfo } from '../admission/plugins/priority.ts';
import { serviceAccountAdmission, type ServiceAccountLike } from '../admission/plugins/service-account.ts';
import { resourceQuotaAdmission } from '../admission/plugins/resource-quota.ts';
import type { QuotaObject } from '../admission/plugins/resource-quota-evaluators.ts';
import { limitRanger, type LimitRange } from '../admission/plugins/limit-ranger.ts';
import { defaultStorageClass } from '../admission/plugins/default-storage-class.ts';
import { storageObjectInUseProtection } from '../admission/plugins/storage-object-in-use-protection.ts';
import { defaultIngressClass } from '../admission/plugins/default-ingress-class.ts';
import { persistentVolumeClaimResize } from '../admission/plugins/pvc-resize.ts';
import { goQuote } from '../apimachinery/goformat/index.ts';
import { alwaysAdmit, alwaysDeny } from '../admission/plugins/always.ts';
import { alwaysPullImages } from '../admission/plugins/always-pull-images.ts';
import {
  certificateApproval, certificateSigning, certificateSubjectRestriction, clusterTrustBundleAttest,
} from '../admission/plugins/certificates.ts';
import { denyServiceExternalIPs } from '../admission/plugins/deny-service-external-ips.ts';
import { nodeDeclaredFeatureValidator } from '../admission/plugins/node-declared-features.ts';
import { nodeRestriction } from '../admission/plugins/node-restriction.ts';
import { taintNodesByCondition } from '../admission/plugins/node-taint.ts';
import { ownerReferencesPermissionEnforcement, type RESTMapper } from '../admission/plugins/owner-references.ts';
import { podNodeSelector } from '../admission/plugins/pod-node-selector.ts';
import { podResizeValidator } from '../admission/plugins/pod-resize.ts';
import { podTopologyLabels } from '../admission/plugins/pod-topology-labels.ts';
import { parseTolerationRestrictionConfig, podTolerationRestriction } from '../admission/plugins/pod-toleration-restriction.ts';
import { runtimeClassAdmission, type RuntimeClassLike } from '../admission/plugins/runtime-class.ts';
import type { Toleration } from '../admission/plugins/tolerations.ts';
import { fieldPath, formatFieldError } from '../apimachinery/errors/field-errors.ts';
import { validateTolerations } from '../apis/core/pod/affinity.ts';
import { podQOSClass } from '../apis/core/pod/qos.ts';
import type { Pod } from '../apis/core/v1/types.ts';
import { goDiff } from '../apis/core/go-types/go-json.ts';
import { V1_36_FEATURES } from './rbac-bootstrap/features.ts';
import { type AdmissionConfigProvider, readAdmissionConfiguration } from './admission-config.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import { webhookAdmissionPlugin, type WebhookAdmissionDeps } from './admission-webhooks.ts';
import { mutatingPolicyAdmissionPlugin, policyAdmissionPlugin, type PolicyAdmissionDeps } from './admission-policies.ts';
import type { Authorizer } from '../authz/authorizer.ts';
import { podSecurityAdmission } from '../admission/plugins/pod-security/plugin.ts';
import { AdmissionInitializationError } from '../admission/initialization-error.ts';
import { parsePodSecurityConfigurationText } from '../admission/plugins/pod-security/config.ts';
import type { Namespace } from '../generated/types/corev1.gen.ts';

/** kube-apiserver v1.36's AllOrderedPlugins: every plugin it registers, in the order the chain runs them. */
export const ALL_ORDERED_PLUGINS: readonly string[] = [
  'AlwaysAdmit', 'NamespaceAutoProvision', 'NamespaceLifecycle', 'NamespaceExists', 'LimitPodHardAntiAffinityTopology',
  'LimitRanger', 'ServiceAccount', 'NodeRestriction', 'TaintNodesByCondition', 'AlwaysPullImages', 'ImagePolicyWebhook',
  'PodSecurity', 'PodNodeSelector', 'Priority', 'DefaultTolerationSeconds', 'PodTolerationRestriction', 'EventRateLimit',
  'ExtendedResourceToleration', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'PodGroupProtection',
  'OwnerReferencesPermissionEnforcement', 'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval',
  'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction', 'DefaultIngressClass',
  'DenyServiceExternalIPs', 'PodTopologyLabels', 'PodGroupWorkloadExists', 'NodeDeclaredFeatureValidator', 'JobValidation',
  'PodResizeValidator',
  // webhooks, policies, quota and AlwaysDeny run last
  'MutatingAdmissionPolicy', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook',
  'ResourceQuota', 'AlwaysDeny',
];

/** Every plugin name, sorted (the list of kube's --enable-admission-plugins help). */
export const KUBE_ADMISSION_PLUGINS: readonly string[] = [...ALL_ORDERED_PLUGINS].sort();

/** kube-apiserver v1.36's default-on plugins (the complement of DefaultOffAdmissionPlugins). */
export const DEFAULT_ON_PLUGINS: ReadonlySet<string> = new Set([
  'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'DefaultStorageClass', 'PersistentVolumeClaimResize',
  'DefaultTolerationSeconds', 'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'ResourceQuota',
  'StorageObjectInUseProtection', 'PodGroupProtection', 'Priority', 'TaintNodesByCondition', 'RuntimeClass',
  'CertificateApproval', 'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction',
  'DefaultIngressClass', 'PodSecurity', 'PodTopologyLabels', 'MutatingAdmissionPolicy', 'ValidatingAdmissionPolicy',
  'PodGroupWorkloadExists', 'NodeDeclaredFeatureValidator', 'JobValidation', 'PodResizeValidator',
]);

/**
 * Plugins whose feature gate is off by default in v1.36 (GenericWorkload, WorkloadWithJob): kube
 * registers them and they admit everything, so kapi accepts them as no-ops rather than refusing.
 */
const GATED_OFF: ReadonlySet<string> = new Set(['PodGroupProtection', 'PodGroupWorkloadExists', 'JobValidation']);

/** The default-on plugins, in chain order (the list in the flags' help). */
export const DEFAULT_ON_PLUGIN_NAMES: readonly string[] = ALL_ORDERED_PLUGINS.filter((n) => DEFAULT_ON_PLUGINS.has(n));

/**
 * AdmissionOptions.Validate with kube's messages (unknown names, a name both enabled and
 * disabled), and one of kapi's: enabling a plugin kube has and kapi does not implement fails by
 * name rather than being accepted with no effect. Disabling one is accepted: it is off already.
 */
export function validateAdmissionPlugins(enable: readonly string[], disable: readonly string[]): string[] {
  const errs: string[] = [];
  const known = new Set(ALL_ORDERED_PLUGINS);
  for (const name of enable) {
    if (!known.has(name)) errs.push(`enable-admission-plugins plugin ${goQuote(name)} is unknown`);
    else if (!implemented(name)) errs.push(`enable-admission-plugins plugin ${goQuote(name)} is not supported by kapi`);
  }
  for (const name of disable) {
    if (!known.has(name)) errs.push(`disable-admission-plugins plugin ${goQuote(name)} is unknown`);
  }
  const both = [...new Set(enable.filter((n) => disable.includes(n)))].sort();
  if (both.length > 0) errs.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  return errs;
}

/** kube's enabledPluginNames: the ordered list, default-on plus enabled, minus disabled (enable wins). */
export function enabledPluginNames(opts: Pick<AdmissionOptions, 'enable' | 'disable'>): string[] {
  return ALL_ORDERED_PLUGINS.filter((n) => opts.enable.includes(n) || (DEFAULT_ON_PLUGINS.has(n) && !opts.disable.includes(n)));
}

/**
 * The enabled plugins kapi does not implement (and that are not no-ops in kube): skipped by the
 * chain, reported at start-up so that the gap is never silent. Only default-on ones can be here.
 */
export function unimplementedEnabledPlugins(opts: Pick<AdmissionOptions, 'enable' | 'disable'>): string[] {
  return enabledPluginNames(opts).filter((n) => !implemented(n));
}

const implemented = (name: string): boolean => Object.hasOwn(available, name) || GATED_OFF.has(name);

export interface AdmissionOptions {
  readonly enable: readonly string[];
  readonly disable: readonly string[];
  /** --admission-control-config-file ('' or absent: none). */
  readonly configFile?: string;
  /** --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds (DefaultTolerationSeconds; default 300). */
  readonly defaultNotReadyTolerationSeconds?: number;
  readonly defaultUnreachableTolerationSeconds?: number;
}

export interface AdmissionStores {
  readonly namespaces: NamespaceLookup;
  readonly serviceAccounts: ResourceStore<KubeObject>;
  readonly priorityClasses: ResourceStore<KubeObject> | undefined;
  /** For LimitRanger, DefaultStorageClass and DefaultIngressClass; a missing store means none. */
  readonly limitRanges?: NamespacedLister | undefined;
  readonly storageClasses?: ResourceStore<KubeObject> | undefined;
  readonly ingressClasses?: ResourceStore<KubeObject> | undefined;
  /** For ResourceQuota: where it finds the quotas of a namespace, and where it charges them. */
  readonly resourceQuotaLister?: NamespacedLister | undefined;
  readonly resourceQuotas?: ResourceStore<KubeObject> | undefined;
  /** The server's authorizer (kube's WantsAuthorizer), for the plugins that ask it. */
  readonly authorizer?: Authorizer | undefined;
  /** Any store by "resource" or "resource.group" (RuntimeClass reads runtimeclasses.node.k8s.io). */
  readonly storeFor?: ((resource: string) => ResourceStore<KubeObject> | undefined) | undefined;
  /** The served kinds' resources (OwnerReferencesPermissionEnforcement). */
  readonly restMapper?: RESTMapper | undefined;
  /** For PodSecurity's check of existing pods when a namespace's enforce level changes; none means no pods. */
  readonly pods?: NamespacedLister | undefined;
  /** For the admission webhooks: the configurations' informers and the HTTPS caller; absent: no webhooks. */
  readonly webhooks?: WebhookAdmissionDeps | undefined;
  /** For ValidatingAdmissionPolicy: the policies' and bindings' informers and the params' stores; absent: no policies. */
  readonly policies?: PolicyAdmissionDeps | undefined;
}

function authorizerOf(s: AdmissionStores, plugin: string): Authorizer {
  if (s.authorizer === undefined) throw new Error(`${plugin} requires an authorizer`);
  return s.authorizer;
}

/** A lister's Get: no object has an empty name (the store would refuse the key with a 400). */
async function getFrom(s: AdmissionStores, resource: string, name: string): Promise<KubeObject | undefined> {
  const store = s.storeFor?.(resource);
  if (name === '') return undefined;
  return store === undefined ? undefined : await getOrUndefined(store, '', name);
}

const qosClass = (pod: KubeObject): string => (pod as Pod).status?.qosClass ?? podQOSClass(pod as Pod);
const checkTolerations = (ts: readonly Toleration[], path: string): string[] =>
  validateTolerations(ts, fieldPath(path)).map(formatFieldError);

/** The objects of one resource in a namespace (a watch-fed cache in the server, kube's lister). */
export interface NamespacedLister {
  list(namespace: string): Promise<KubeObject[]>;
}

async function listAll(store: ResourceStore<KubeObject> | undefined, namespace = ''): Promise<KubeObject[]> {
  return store === undefined ? [] : (await store.list(systemContext(namespace), {})).items;
}

async function getOrUndefined(store: ResourceStore<KubeObject>, namespace: string, name: string): Promise<KubeObject | undefined> {
  try {
    return await store.get(systemContext(namespace), name, {});
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function priorityInfo(o: KubeObject): PriorityClassInfo {
  const pc = o as KubeObject & { value?: number; preemptionPolicy?: string; globalDefault?: boolean };
  return {
    name: o.metadata.name ?? '', value: pc.value ?? 0,
    ...(pc.preemptionPolicy !== undefined ? { preemptionPolicy: pc.preemptionPolicy } : {}),
    ...(pc.globalDefault !== undefined ? { globalDefault: pc.globalDefault } : {}),
  };
}

/**
 * The plugins kapi implements. A factory gets the server's stores and the plugin's configuration
 * from --admission-control-config-file (its raw text, or undefined); it throws to refuse the
 * configuration (start-up fails with kube's "couldn't init admission plugin" message).
 */
type PluginFactory = (s: AdmissionStores, config: string | undefined, opts: AdmissionOptions) => Plugin;

const available: Readonly<Record<string, PluginFactory>> = {
  AlwaysAdmit: () => alwaysAdmit(),
  AlwaysDeny: () => alwaysDeny(),
  NamespaceLifecycle: (s) => namespaceLifecycle(s.namespaces),
  ServiceAccount: (s) => serviceAccountAdmission(async (ns, name) => await getOrUndefined(s.serviceAccounts, ns, name) as ServiceAccountLike | undefined),
  PodSecurity: (s, config) => podSecurityAdmission({
    getNamespace: async (name) => await s.namespaces(name) as Namespace | undefined,
    listPods: async (ns) => await s.pods?.list(ns) ?? [],
  }, parsePodSecurityConfigurationText(config)),
  Priority: (s) => priorityAdmission({
    get: async (name) => {
      if (s.priorityClasses === undefined) return undefined;
      const o = await getOrUndefined(s.priorityClasses, '', name);
      return o === undefined ? undefined : priorityInfo(o);
    },
    globalDefault: async () => {
      const list = await listAll(s.priorityClasses);
      return list.map(priorityInfo).filter((p) => p.globalDefault === true).sort((a, b) => a.value - b.value)[0];
    },
  }),
  DefaultTolerationSeconds: (_s, _config, o) => defaultTolerationSeconds(o.defaultNotReadyTolerationSeconds, o.defaultUnreachableTolerationSeconds),
  LimitRanger: (s) => limitRanger(async (ns) => (await s.limitRanges?.list(ns) ?? []) as LimitRange[]),
  DefaultStorageClass: (s) => defaultStorageClass(() => listAll(s.storageClasses)),
  StorageObjectInUseProtection: () => storageObjectInUseProtection(),
  PersistentVolumeClaimResize: (s) => persistentVolumeClaimResize(async (name) =>
    (s.storageClasses === undefined ? undefined : await getOrUndefined(s.storageClasses, '', name)) as KubeObject & { allowVolumeExpansion?: boolean } | undefined),
  DefaultIngressClass: (s) => defaultIngressClass(() => listAll(s.ingressClasses)),
  TaintNodesByCondition: () => taintNodesByCondition(),
  RuntimeClass: (s) => runtimeClassAdmission(async (name) => await getFrom(s, 'runtimeclasses.node.k8s.io', name) as RuntimeClassLike | undefined),
  CertificateApproval: (s) => certificateApproval(authorizerOf(s, 'CertificateApproval')),
  CertificateSigning: (s) => certificateSigning(authorizerOf(s, 'CertificateSigning')),
  ClusterTrustBundleAttest: (s) => clusterTrustBundleAttest(authorizerOf(s, 'ClusterTrustBundleAttest'), V1_36_FEATURES.ClusterTrustBundle),
  CertificateSubjectRestriction: () => certificateSubjectRestriction(),
  AlwaysPullImages: () => alwaysPullImages(),
  DenyServiceExternalIPs: () => denyServiceExternalIPs(),
  PodNodeSelector: (s, config) => podNodeSelector(s.namespaces, config),
  PodTolerationRestriction: (s, config) => podTolerationRestriction(s.namespaces, parseTolerationRestrictionConfig(config, checkTolerations), qosClass),
  PodTopologyLabels: (s) => podTopologyLabels((name) => getFrom(s, 'nodes', name)),
  NodeDeclaredFeatureValidator: (s) => nodeDeclaredFeatureValidator((name) => getFrom(s, 'nodes', name)),
  PodResizeValidator: (s) => podResizeValidator((name) => getFrom(s, 'nodes', name)),
  NodeRestriction: (s) => nodeRestriction(async (resource, ns, name) => {
    const store = s.storeFor?.(resource);
    return store === undefined ? undefined : await getOrUndefined(store, ns, name);
  }, authorizerOf(s, 'NodeRestriction'), (old, cur) => goDiff(old, cur, 'PersistentVolumeClaim')),
  OwnerReferencesPermissionEnforcement: (s) => ownerReferencesPermissionEnforcement(authorizerOf(s, 'OwnerReferencesPermissionEnforcement'),
    s.restMapper ?? (() => { throw new Error('missing restMapper'); })),
  MutatingAdmissionPolicy: (s) => mutatingPolicyAdmissionPlugin(s.policies, s.namespaces),
  MutatingAdmissionWebhook: (s) => webhookAdmissionPlugin('Mutating', s.webhooks, s.namespaces),
  ValidatingAdmissionPolicy: (s) => policyAdmissionPlugin(s.policies, s.namespaces),
  ValidatingAdmissionWebhook: (s) => webhookAdmissionPlugin('Validating', s.webhooks, s.namespaces),
  ResourceQuota: (s) => resourceQuotaAdmission({
    list: async (ns) => (s.resourceQuotaLister !== undefined ? await s.resourceQuotaLister.list(ns) : await listAll(s.resourceQuotas, ns)) as QuotaObject[],
    updateStatus: async (ns, name, mutate) => {
      await s.resourceQuotas?.updateUnchecked(systemContext(ns), name, (cur) => mutate(cur as QuotaObject), { dryRun: false });
    },
  }),
};

/**
 * The chain of the enabled plugins kapi implements, in kube's order, each given its configuration.
 * Throws, with kube's messages, for plugin names validateAdmissionPlugins refuses, an unreadable
 * or invalid configuration file and a configuration a plugin refuses.
 */
export function newAdmissionChain(opts: AdmissionOptions, stores: AdmissionStores): AdmissionChain {
  const errs = validateAdmissionPlugins(opts.enable, opts.disable);
  if (errs.length > 0) throw new Error(errs.length === 1 ? errs[0] ?? '' : `[${errs.join(', ')}]`);
  const names = enabledPluginNames(opts);
  let configs: AdmissionConfigProvider;
  try {
    configs = readAdmissionConfiguration(names, opts.configFile ?? '');
  } catch (err) {
    throw new Error(`failed to apply admission: failed to read plugin config: ${(err as Error).message}`);
  }
  const plugins: Plugin[] = [];
  for (const name of names) {
    const factory = available[name];
    if (factory === undefined) continue;
    const config = configs.configFor(name);
    try {
      plugins.push(factory(stores, config, opts));
    } catch (err) {
      const what = err instanceof AdmissionInitializationError ? 'failed to initialize' : 'couldn\'t init';
      throw new Error(`failed to apply admission: ${what} admission plugin ${goQuote(name)}: ${(err as Error).message}`);
    }
  }
  return new AdmissionChain(plugins);
}
