// The admission chain: the plugins kapi implements, on by default as in kube-apiserver, and
// --enable-admission-plugins / --disable-admission-plugins.
// Counterpart of pkg/kubeapiserver/options/plugins.go and
// k8s.io/apiserver/pkg/server/options/admission.go.
import { isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import { AdmissionChain, type Plugin } from '../admission/interfaces.ts';
import { defaultTolerationSeconds } from '../admission/plugins/default-toleration-seconds.ts';
import { namespaceLifecycle, type NamespaceLookup } from '../admission/plugins/namespace-lifecycle.ts';
import { priorityAdmission, type PriorityClassInfo } from '../admission/plugins/priority.ts';
import { serviceAccountAdmission } from '../admission/plugins/service-account.ts';
import { resourceQuotaAdmission } from '../admission/plugins/resource-quota.ts';
import type { QuotaObject } from '../admission/plugins/resource-quota-evaluators.ts';
import { limitRanger, type LimitRange } from '../admission/plugins/limit-ranger.ts';
import { defaultStorageClass } from '../admission/plugins/default-storage-class.ts';
import { storageObjectInUseProtection } from '../admission/plugins/storage-object-in-use-protection.ts';
import { defaultIngressClass } from '../admission/plugins/default-ingress-class.ts';
import { persistentVolumeClaimResize } from '../admission/plugins/pvc-resize.ts';
import { goQuote } from '../apimachinery/goformat/index.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import { webhookAdmissionPlugin, type WebhookAdmissionDeps } from './admission-webhooks.ts';

/** Every admission plugin kube-apiserver v1.36 registers (the list of its --enable-admission-plugins help). */
export const KUBE_ADMISSION_PLUGINS: readonly string[] = [
  'AlwaysAdmit', 'AlwaysDeny', 'AlwaysPullImages', 'CertificateApproval', 'CertificateSigning', 'CertificateSubjectRestriction',
  'ClusterTrustBundleAttest', 'DefaultIngressClass', 'DefaultStorageClass', 'DefaultTolerationSeconds', 'DenyServiceExternalIPs',
  'EventRateLimit', 'ExtendedResourceToleration', 'ImagePolicyWebhook', 'JobValidation', 'LimitPodHardAntiAffinityTopology',
  'LimitRanger', 'MutatingAdmissionPolicy', 'MutatingAdmissionWebhook', 'NamespaceAutoProvision', 'NamespaceExists',
  'NamespaceLifecycle', 'NodeDeclaredFeatureValidator', 'NodeRestriction', 'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize', 'PodGroupProtection', 'PodGroupWorkloadExists', 'PodNodeSelector', 'PodResizeValidator',
  'PodSecurity', 'PodTolerationRestriction', 'PodTopologyLabels', 'Priority', 'ResourceQuota', 'RuntimeClass', 'ServiceAccount',
  'StorageObjectInUseProtection', 'TaintNodesByCondition', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook',
];

/** The plugins kapi implements, in kube-apiserver's RecommendedPluginOrder; all are on unless disabled. */
export const ADMISSION_PLUGIN_ORDER: readonly string[] = ['NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'Priority',
  'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize', 'DefaultIngressClass',
  'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'ResourceQuota'];

/**
 * AdmissionOptions.Validate with kube's messages (unknown names, a name both enabled and
 * disabled), and one of kapi's: enabling a plugin kube has and kapi does not implement fails by
 * name rather than being accepted with no effect. Disabling one is accepted: it is off already.
 */
export function validateAdmissionPlugins(enable: readonly string[], disable: readonly string[]): string[] {
  const errs: string[] = [];
  const known = new Set(KUBE_ADMISSION_PLUGINS);
  for (const name of enable) {
    if (!known.has(name)) errs.push(`enable-admission-plugins plugin ${goQuote(name)} is unknown`);
    else if (!ADMISSION_PLUGIN_ORDER.includes(name)) {
      errs.push(`enable-admission-plugins plugin ${goQuote(name)} is not supported by kapi (supported: ${ADMISSION_PLUGIN_ORDER.join(', ')})`);
    }
  }
  for (const name of disable) {
    if (!known.has(name)) errs.push(`disable-admission-plugins plugin ${goQuote(name)} is unknown`);
  }
  const both = [...new Set(enable.filter((n) => disable.includes(n)))].sort();
  if (both.length > 0) errs.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  return errs;
}

export interface AdmissionOptions {
  readonly enable: readonly string[];
  readonly disable: readonly string[];
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
  /** For the admission webhooks: the configurations' informers and the HTTPS caller; absent: no webhooks. */
  readonly webhooks?: WebhookAdmissionDeps | undefined;
}

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

/** Rejects the plugin names validateAdmissionPlugins refuses, as kube-apiserver does at start. */
export function newAdmissionChain(opts: AdmissionOptions, stores: AdmissionStores): AdmissionChain {
  const pcs = stores.priorityClasses;
  const available: Readonly<Record<string, () => Plugin>> = {
    NamespaceLifecycle: () => namespaceLifecycle(stores.namespaces),
    ServiceAccount: () => serviceAccountAdmission(async (ns, name) => {
      const sa = await getOrUndefined(stores.serviceAccounts, ns, name) as (KubeObject & { automountServiceAccountToken?: boolean }) | undefined;
      return sa === undefined ? undefined : sa.automountServiceAccountToken ?? true;
    }),
    Priority: () => priorityAdmission({
      get: async (name) => {
        if (pcs === undefined) return undefined;
        const o = await getOrUndefined(pcs, '', name);
        return o === undefined ? undefined : priorityInfo(o);
      },
      globalDefault: async () => {
        if (pcs === undefined) return undefined;
        const list = await pcs.list(systemContext(''), {});
        const d = list.items.map(priorityInfo).filter((p) => p.globalDefault === true).sort((a, b) => a.value - b.value)[0];
        return d;
      },
    }),
    DefaultTolerationSeconds: () => defaultTolerationSeconds(),
    LimitRanger: () => limitRanger(async (ns) => (await stores.limitRanges?.list(ns) ?? []) as LimitRange[]),
    DefaultStorageClass: () => defaultStorageClass(() => listAll(stores.storageClasses)),
    StorageObjectInUseProtection: () => storageObjectInUseProtection(),
    PersistentVolumeClaimResize: () => persistentVolumeClaimResize(async (name) =>
      (stores.storageClasses === undefined ? undefined : await getOrUndefined(stores.storageClasses, '', name)) as KubeObject & { allowVolumeExpansion?: boolean } | undefined),
    DefaultIngressClass: () => defaultIngressClass(() => listAll(stores.ingressClasses)),
    MutatingAdmissionWebhook: () => webhookAdmissionPlugin('Mutating', stores.webhooks, stores.namespaces),
    ValidatingAdmissionWebhook: () => webhookAdmissionPlugin('Validating', stores.webhooks, stores.namespaces),
    ResourceQuota: () => resourceQuotaAdmission({
      list: async (ns) => (stores.resourceQuotaLister !== undefined ? await stores.resourceQuotaLister.list(ns) : await listAll(stores.resourceQuotas, ns)) as QuotaObject[],
      updateStatus: async (ns, name, mutate) => {
        await stores.resourceQuotas?.updateUnchecked(systemContext(ns), name, (cur) => mutate(cur as QuotaObject), { dryRun: false });
      },
    }),
  };
  const errs = validateAdmissionPlugins(opts.enable, opts.disable);
  if (errs.length > 0) throw new Error(errs.length === 1 ? errs[0] ?? '' : `[${errs.join(', ')}]`);
  return new AdmissionChain(ADMISSION_PLUGIN_ORDER.filter((n) => !opts.disable.includes(n)).map((n) => (available[n] as () => Plugin)()));
}
