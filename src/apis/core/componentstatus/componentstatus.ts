// componentstatuses (pkg/registry/core/componentstatus): the health of the components the
// server checks: its storage as etcd-0, kube-controller-manager and kube-scheduler on their
// default ports (http-probe.ts). Cluster-scoped, get and list only, nothing stored.
import { convertFieldSelector, defaultMetaV1FieldSelectorConversion, newSelectionPredicate, parseFieldSelectorParam } from '../../../apimachinery/fields/index.ts';
import { parseLabelSelectorParam } from '../../../apimachinery/labels/index.ts';
import type { KubeList, KubeObject, ObjectMeta } from '../../../apimachinery/meta/types.ts';
import type { Getter, Lister } from '../../../registry/rest/capabilities.ts';
import type { VirtualResource } from '../../../registry/rest/group.ts';
import type { TableColumn } from '../../../registry/rest/strategy.ts';
import { unknownError } from '../pod/subresources/status.ts';

export interface ComponentCondition { type: 'Healthy'; status: 'True' | 'False' | 'Unknown'; message?: string; error?: string }
export interface ComponentStatus { apiVersion?: string; kind?: string; metadata: ObjectMeta; conditions: ComponentCondition[] }

/**
 * Resolves the message when healthy, `{ unhealthy }` or `{ unknown }` with the message of a failed
 * or inconclusive probe (an HTTP probe's outcome); rejects with the error of a check that could
 * not run (etcd's), reported as the condition's error.
 */
export type HealthProbe = () => Promise<string | { readonly unhealthy: string } | { readonly unknown: string }>;

export interface ComponentStatusDeps {
  /** Components by name; default etcd-0 reported healthy with message "ok". */
  readonly components?: Readonly<Record<string, HealthProbe>>;
}

async function statusOf(name: string, probe: HealthProbe): Promise<ComponentStatus> {
  const condition: ComponentCondition = { type: 'Healthy', status: 'True' };
  try {
    const outcome = await probe();
    let message: string;
    if (typeof outcome === 'string') message = outcome;
    else if ('unhealthy' in outcome) { condition.status = 'False'; message = outcome.unhealthy; } else {
      condition.status = 'Unknown';
      message = outcome.unknown;
    }
    if (message !== '') condition.message = message;
  } catch (err) {
    condition.status = 'False';
    condition.error = err instanceof Error ? err.message : String(err);
  }
  return { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name }, conditions: [condition] };
}

export function newComponentStatusREST(deps: ComponentStatusDeps = {}): Getter & Lister {
  const components = deps.components ?? { 'etcd-0': () => Promise.resolve('ok') };
  return {
    async get(_ctx, name) {
      const probe = components[name];
      if (probe === undefined) throw unknownError(`Component not found: ${name}`);
      return await statusOf(name, probe) as KubeObject;
    },
    async list(_ctx, opts): Promise<KubeList> {
      // kube's list handler converts the field selector with the default conversion (no field
      // labels are registered for ComponentStatus) before the REST filters by labels and name.
      const labels = opts.labelSelector !== undefined && opts.labelSelector !== '' ? parseLabelSelectorParam(opts.labelSelector) : undefined;
      const fields = opts.fieldSelector !== undefined && opts.fieldSelector !== ''
        ? convertFieldSelector(parseFieldSelectorParam(opts.fieldSelector), defaultMetaV1FieldSelectorConversion) : undefined;
      const selected = newSelectionPredicate(labels, fields, (o) => ({ 'metadata.name': o.metadata.name ?? '' }));
      const names = Object.keys(components).sort();
      const items = await Promise.all(names.map((n) => statusOf(n, components[n] ?? (() => Promise.resolve('')))));
      return {
        apiVersion: 'v1', kind: 'ComponentStatusList', metadata: {},
        items: (items as KubeObject[]).filter((o) => selected.matches(o)),
      };
    },
  };
}

/** printComponentStatus: Healthy / Unhealthy from the Healthy condition. */
export const componentStatusTable: readonly TableColumn<ComponentStatus>[] = [
  { name: 'Name', type: 'string', format: 'name', cell: (cs) => cs.metadata.name ?? '' },
  { name: 'Status', type: 'string', cell: (cs) => {
    const c = cs.conditions.find((x) => x.type === 'Healthy');
    return c === undefined ? 'Unknown' : c.status === 'True' ? 'Healthy' : 'Unhealthy';
  } },
  { name: 'Message', type: 'string', cell: (cs) => cs.conditions.find((x) => x.type === 'Healthy')?.message ?? '' },
  { name: 'Error', type: 'string', cell: (cs) => cs.conditions.find((x) => x.type === 'Healthy')?.error ?? '' },
];

export function componentStatuses(deps: ComponentStatusDeps = {}): VirtualResource {
  return {
    resource: 'componentstatuses', kind: 'ComponentStatus', singular: 'componentstatus', namespaced: false,
    shortNames: ['cs'],
    lifecycle: { deprecated: [1, 19] },
    table: componentStatusTable as readonly TableColumn<KubeObject>[],
    storage: () => newComponentStatusREST(deps),
  };
}
