// PodNodeSelector: a pod created in a namespace gets the namespace's node selector (annotation
// scheduler.alpha.kubernetes.io/node-selector, else the plugin's clusterDefaultNodeSelector)
// merged into its own, refused when they conflict or when the result leaves the namespace's
// whitelist (the plugin configuration's entry named after the namespace).
// Counterpart of plugin/pkg/admission/podnodeselector.
import { newForbidden, newInternalError, newUnknownError, StatusError } from '../../apimachinery/errors/status-error.ts';
import { formatFieldError, invalid } from '../../apimachinery/errors/field-errors.ts';
import { yamlToJSON } from '../../apimachinery/fieldvalidation/index.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { isQualifiedName, isValidLabelValue } from '../../apimachinery/validation/validation.ts';
import { type Plugin, onResources } from '../interfaces.ts';
import type { NamespaceLookup } from './namespace-lifecycle.ts';

const ANNOTATION = 'scheduler.alpha.kubernetes.io/node-selector';
type LabelSet = Record<string, string>;

/** labels.ConvertSelectorToLabelsMap, with its error texts (the path is Go's nil path). */
export function selectorToLabelsMap(selector: string): LabelSet {
  const out: LabelSet = {};
  if (selector === '') return out;
  for (const label of selector.split(',')) {
    const l = label.split('=');
    if (l.length !== 2) throw new Error(`invalid selector: [${l.join(' ')}]`);
    const key = (l[0] ?? '').trim();
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length > 0) throw new Error(formatFieldError(invalid('<nil>', key, keyErrs.join('; '))));
    const value = (l[1] ?? '').trim();
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length > 0) throw new Error(formatFieldError(invalid(`[${key}]`, value, valueErrs.join('; '))));
    out[key] = value;
  }
  return out;
}

/** labels.Conflicts: a key both have with different values. */
export const conflicts = (a: LabelSet, b: LabelSet): boolean => Object.entries(a).some(([k, v]) => b[k] !== undefined && b[k] !== v);

/**
 * The plugin configuration: `podNodeSelectorPluginConfig`, a map of clusterDefaultNodeSelector
 * and namespace whitelists, in YAML or JSON; like kube, whatever does not decode is ignored.
 */
export function parsePodNodeSelectorConfig(config: string | undefined): LabelSet {
  if (config === undefined) return {};
  try {
    const v = yamlToJSON(config, false).value as Record<string, unknown> | null;
    const key = Object.keys(v ?? {}).find((k) => k.toLowerCase() === 'podnodeselectorpluginconfig');
    const m = key === undefined ? undefined : v?.[key];
    if (typeof m !== 'object' || m === null) return {};
    return Object.fromEntries(Object.entries(m).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

export function podNodeSelector(namespaces: NamespaceLookup, config: string | undefined): Plugin {
  const cluster = parsePodNodeSelectorConfig(config);
  // A plain error in kube: a 500 with its text.
  const raw = (err: unknown): StatusError => newUnknownError((err as Error).message);
  const namespaceSelector = async (name: string): Promise<LabelSet> => {
    const ns = await namespaces(name);
    if (ns === undefined) throw newInternalError(new Error(`namespace ${name} does not exist`));
    const annotations = ns.metadata.annotations ?? {};
    if (annotations[ANNOTATION] === undefined) return selectorToLabelsMap(cluster['clusterDefaultNodeSelector'] ?? '');
    // kube reads a list of annotations (one today), refusing ones that conflict.
    return selectorToLabelsMap(annotations[ANNOTATION]);
  };
  const check = async (name: string, pod: KubeObject & { spec?: { nodeSelector?: LabelSet } }, ns: string, merge: boolean): Promise<void> => {
    let nsSelector: LabelSet;
    let whitelist: LabelSet;
    try {
      nsSelector = await namespaceSelector(ns);
    } catch (err) {
      throw err instanceof StatusError ? err : raw(err);
    }
    const spec = pod.spec ??= {};
    const forbid = (msg: string): Error => newForbidden({ group: '', resource: 'pods' }, name, msg);
    if (conflicts(nsSelector, spec.nodeSelector ?? {})) throw forbid('pod node label selector conflicts with its namespace node label selector');
    if (merge) {
      const merged = { ...nsSelector, ...spec.nodeSelector };
      if (Object.keys(merged).length > 0) spec.nodeSelector = merged;
    }
    try {
      whitelist = selectorToLabelsMap(cluster[ns] ?? '');
    } catch (err) {
      throw raw(err);
    }
    if (Object.keys(whitelist).length > 0 && !Object.entries(spec.nodeSelector ?? {}).every(([k, v]) => whitelist[k] === v)) {
      throw forbid('pod node label selector labels conflict with its namespace whitelist');
    }
  };
  const pod = (a: Parameters<NonNullable<Plugin['admit']>>[1]): (KubeObject & { spec?: { nodeSelector?: LabelSet } }) | undefined =>
    a.resource.group === '' && a.resource.resource === 'pods' && a.subresource === '' && a.object !== undefined ? a.object : undefined;
  return {
    name: 'PodNodeSelector',
    resources: onResources('/pods'),
    handles: (op) => op === 'CREATE',
    async admit(_ctx, a) {
      const p = pod(a);
      // The error names the pod by its own name (empty for generateName), as kube does.
      if (p !== undefined) await check(p.metadata.name ?? '', p, a.namespace, true);
    },
    async validate(_ctx, a) {
      const p = pod(a);
      if (p !== undefined) await check(p.metadata.name ?? '', p, a.namespace, false);
    },
  };
}
