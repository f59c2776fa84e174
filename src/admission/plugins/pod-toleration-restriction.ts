// PodTolerationRestriction: a pod created in a namespace gets the namespace's default
// tolerations (annotation scheduler.alpha.kubernetes.io/defaultTolerations, else the plugin's
// `default`), a pod that is not BestEffort tolerates memory pressure, and the result must stay
// within the namespace's whitelist (annotation .../tolerationsWhitelist, else the plugin's).
// A whitelist violation is a plain error in kube, so a 500 with its text.
// Counterpart of plugin/pkg/admission/podtolerationrestriction.
import { newInternalError, newUnknownError } from '../../apimachinery/errors/status-error.ts';
import { jsonSyntaxError, yamlToJSON, YAMLConversionError } from '../../apimachinery/fieldvalidation/index.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { type Attributes, type Plugin, onResources } from '../interfaces.ts';
import type { NamespaceLookup } from './namespace-lifecycle.ts';
import { mergeTolerations, verifyAgainstWhitelist, type Toleration } from './tolerations.ts';

const DEFAULT_ANNOTATION = 'scheduler.alpha.kubernetes.io/defaultTolerations';
const WHITELIST_ANNOTATION = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';
const CONFIG_VERSION = 'podtolerationrestriction.admission.k8s.io/v1alpha1';

export interface TolerationRestrictionConfig {
  readonly default: readonly Toleration[];
  readonly whitelist: readonly Toleration[];
}

/** Checks tolerations as pod validation does; returns Go's field error texts. */
export type TolerationsValidator = (tolerations: readonly Toleration[], path: string) => string[];

/** loadConfiguration: a podtolerationrestriction.admission.k8s.io/v1alpha1 Configuration; errors as kube's. */
export function parseTolerationRestrictionConfig(config: string | undefined, validate: TolerationsValidator): TolerationRestrictionConfig {
  if (config === undefined) return { default: [], whitelist: [] };
  let v: unknown;
  try {
    v = yamlToJSON(config, false).value;
  } catch (err) {
    throw err instanceof YAMLConversionError ? new Error(err.message) : err;
  }
  const obj = (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {}) as Record<string, unknown>;
  const apiVersion = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
  const kind = typeof obj['kind'] === 'string' ? obj['kind'] : '';
  if (kind === '') throw new Error(`Object 'Kind' is missing in '${config}'`);
  if (apiVersion === '') throw new Error(`Object 'apiVersion' is missing in '${config}'`);
  if (apiVersion !== CONFIG_VERSION || kind !== 'Configuration') {
    throw new Error(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/runtime/scheme.go:111"`);
  }
  const list = (k: string): Toleration[] => (Array.isArray(obj[k]) ? obj[k] as Toleration[] : []);
  const cfg = { default: list('default'), whitelist: list('whitelist') };
  const errs = [...validate(cfg.default, 'podtolerationrestriction.default'), ...validate(cfg.whitelist, 'podtolerationrestriction.whitelist')];
  if (errs.length > 0) throw new Error(`invalid config: [${errs.join(' ')}]`);
  return cfg;
}

/** extractNSTolerations: undefined without the annotation, [] for an empty one; bad JSON is a 500. */
function namespaceTolerations(ns: KubeObject, key: string): Toleration[] | undefined {
  const text = ns.metadata.annotations?.[key];
  if (text === undefined) return undefined;
  if (text === '') return [];
  const syntax = jsonSyntaxError(text);
  if (syntax !== undefined) throw newUnknownError(syntax);
  const v = JSON.parse(text) as unknown;
  if (v === null) return [];
  if (!Array.isArray(v)) {
    throw newUnknownError(`json: cannot unmarshal ${typeof v === 'object' ? 'object' : typeof v} into Go value of type []v1.Toleration`);
  }
  return v as Toleration[];
}

const MEMORY_PRESSURE: Toleration = { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };

type PodLike = KubeObject & { spec?: { tolerations?: Toleration[] } };

export function podTolerationRestriction(namespaces: NamespaceLookup, cfg: TolerationRestrictionConfig,
  qosClass: (pod: KubeObject) => string): Plugin {
  const namespace = async (name: string): Promise<KubeObject> => {
    const ns = await namespaces(name);
    if (ns === undefined) throw newInternalError(new Error(`namespaces "${name}" not found`));
    return ns;
  };
  const podOf = (a: Attributes): PodLike | undefined =>
    a.resource.group === '' && a.resource.resource === 'pods' && a.subresource === '' && a.object !== undefined ? a.object as PodLike : undefined;
  const validate = async (a: Attributes): Promise<void> => {
    const pod = podOf(a);
    const tolerations = pod?.spec?.tolerations ?? [];
    if (pod === undefined || tolerations.length === 0) return;
    let whitelist = namespaceTolerations(await namespace(a.namespace), WHITELIST_ANNOTATION);
    let scope = 'namespace';
    if (whitelist === undefined) {
      whitelist = [...cfg.whitelist];
      scope = 'cluster';
    }
    if (whitelist.length > 0 && !verifyAgainstWhitelist(tolerations, whitelist)) {
      throw newUnknownError(`pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist`);
    }
  };
  return {
    name: 'PodTolerationRestriction',
    resources: onResources('/pods'),
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async admit(_ctx, a) {
      const pod = podOf(a);
      if (pod === undefined) return;
      let extra: Toleration[] = [];
      if (a.operation === 'CREATE') extra = namespaceTolerations(await namespace(a.namespace), DEFAULT_ANNOTATION) ?? [...cfg.default];
      if (qosClass(pod) !== 'BestEffort') extra.push({ ...MEMORY_PRESSURE });
      if (extra.length > 0) {
        const spec = pod.spec ??= {};
        const merged = mergeTolerations(spec.tolerations ?? [], extra);
        if (merged.length > 0) spec.tolerations = merged;
      }
      await validate(a);
    },
    validate: (_ctx, a) => validate(a),
  };
}
