// Priority and fairness in the control plane: the config producer (kube's
// priority-and-fairness-config-producer hook) creates the mandatory and suggested FlowSchemas and
// PriorityLevelConfigurations and keeps them, at start and every minute: a mandatory object's
// spec is always restored; a suggested one's while its apf.kubernetes.io/autoupdate-spec
// annotation is true (or, without a boolean there, while its generation is 1); an object with the
// annotation true that is no longer bootstrap configuration is deleted. The config consumer
// (priority-and-fairness-config-consumer) feeds the informers' objects to the controller and
// writes the Dangling condition of each FlowSchema's status.
// Counterpart of pkg/registry/flowcontrol/ensurer, pkg/registry/flowcontrol/rest (the hook) and
// k8s.io/apiserver/pkg/util/flowcontrol/apf_controller.go (the status writes).
import { isAlreadyExists, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import type { PostStartHook } from '../server/post-start-hooks.ts';
import {
  MANDATORY_FS_CATCH_ALL, MANDATORY_FS_EXEMPT, MANDATORY_PL_CATCH_ALL, MANDATORY_PL_EXEMPT, SUGGESTED_FSS, SUGGESTED_PLS,
} from '../server/flowcontrol/bootstrap.ts';
import { APFController } from '../server/flowcontrol/controller.ts';
import { dumpHandlers } from '../server/flowcontrol/dump.ts';
import { exportMetricsOf } from '../server/flowcontrol/metrics.ts';
import { objectStats, pollObjectCounts } from '../storage/metrics.ts';
import type { NonResourceHandler } from '../server/generic-server.ts';
import { AUTO_UPDATE_ANNOTATION, type FlowSchema, type PriorityLevelConfiguration } from '../server/flowcontrol/types.ts';

const ENSURE_INTERVAL_MS = 60_000;
const REBALANCE_INTERVAL_MS = 10_000;

type Spec = { spec?: unknown };

/** Go's strconv.ParseBool, undefined when the text is no boolean. */
function parseBool(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

/** Key order does not matter: the spec as stored may list fields in another order than the bootstrap one. */
function sameJSON(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameJSON((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * The strategies of ensurer/strategy.go: the object to write, or undefined when the stored one is
 * up to date. `mandatory`: the spec is always kept.
 */
export function ensureUpdate(current: KubeObject & Spec, bootstrap: KubeObject & Spec, mandatory: boolean): (KubeObject & Spec) | undefined {
  const annotation = current.metadata.annotations?.[AUTO_UPDATE_ANNOTATION];
  const autoUpdate = mandatory || (parseBool(annotation) ?? current.metadata.generation === 1);
  const updateAnnotation = parseBool(annotation) !== autoUpdate;
  const specChanged = autoUpdate && !sameJSON(current.spec, bootstrap.spec);
  if (!updateAnnotation && !specChanged) return undefined;
  const next = structuredClone(current);
  if (updateAnnotation) next.metadata.annotations = { ...next.metadata.annotations, [AUTO_UPDATE_ANNOTATION]: String(autoUpdate) };
  if (specChanged) {
    next.spec = structuredClone(bootstrap.spec);
    next.metadata.generation = (next.metadata.generation ?? 0) + 1;
  }
  return next;
}

async function ensureOne(store: ResourceStore<KubeObject>, bootstrap: KubeObject & Spec, mandatory: boolean): Promise<void> {
  const name = bootstrap.metadata.name ?? '';
  let current: KubeObject & Spec;
  try {
    current = await store.get(systemContext(), name, {}) as KubeObject & Spec;
  } catch (err) {
    if (!isNotFound(err)) throw err;
    const obj = structuredClone(bootstrap);
    obj.metadata.annotations = { [AUTO_UPDATE_ANNOTATION]: 'true' };
    store.definition.defaults?.(obj);
    try {
      await store.create(systemContext(), obj, undefined, { dryRun: false });
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
    return;
  }
  if (ensureUpdate(current, bootstrap, mandatory) === undefined) return;
  await store.updateUnchecked(systemContext(), name, (cur) => ensureUpdate(cur as KubeObject & Spec, bootstrap, mandatory) ?? cur, { dryRun: false });
}

/** Deletes the objects of ours (annotation true) that are bootstrap configuration no more. */
async function removeUnwanted(store: ResourceStore<KubeObject>, wanted: ReadonlySet<string>): Promise<void> {
  const list = await store.list(systemContext(), {}) as { items: KubeObject[] };
  for (const o of list.items) {
    const name = o.metadata.name ?? '';
    if (wanted.has(name) || parseBool(o.metadata.annotations?.[AUTO_UPDATE_ANNOTATION]) !== true) continue;
    await store.delete(systemContext(), name, undefined, {}).catch((err: unknown) => { if (!isNotFound(err)) throw err; });
  }
}

export interface FlowControlStores {
  readonly flowSchemas: ResourceStore<KubeObject>;
  readonly priorityLevels: ResourceStore<KubeObject>;
}

/** One pass of the config producer: priority levels first, as FlowSchemas refer to them. */
export async function ensureAPFBootstrapConfiguration(s: FlowControlStores): Promise<void> {
  for (const pl of [MANDATORY_PL_EXEMPT, MANDATORY_PL_CATCH_ALL]) await ensureOne(s.priorityLevels, pl, true);
  for (const pl of SUGGESTED_PLS) await ensureOne(s.priorityLevels, pl, false);
  for (const fs of [MANDATORY_FS_EXEMPT, MANDATORY_FS_CATCH_ALL]) await ensureOne(s.flowSchemas, fs, true);
  for (const fs of SUGGESTED_FSS) await ensureOne(s.flowSchemas, fs, false);
  const names = (xs: readonly KubeObject[]): Set<string> => new Set(xs.map((x) => x.metadata.name ?? ''));
  await removeUnwanted(s.priorityLevels, names([MANDATORY_PL_EXEMPT, MANDATORY_PL_CATCH_ALL, ...SUGGESTED_PLS]));
  await removeUnwanted(s.flowSchemas, names([MANDATORY_FS_EXEMPT, MANDATORY_FS_CATCH_ALL, ...SUGGESTED_FSS]));
}

export interface FlowControlHookDeps {
  readonly controller: APFController;
  readonly stores: FlowControlStores;
  readonly informer: (store: ResourceStore<KubeObject>, name: string) => SharedInformer;
}

/** kube's three hooks: the consumer, the filter's watermarks (a no-op here), the producer. */
export function flowControlHooks(d: FlowControlHookDeps): { consumer: PostStartHook; filter: PostStartHook; producer: PostStartHook } {
  const fsInformer = d.informer(d.stores.flowSchemas, 'flowschemas.flowcontrol.apiserver.k8s.io');
  const plInformer = d.informer(d.stores.priorityLevels, 'prioritylevelconfigurations.flowcontrol.apiserver.k8s.io');
  let pending = false;
  let stopped = false;
  const sync = (): void => {
    if (pending || stopped) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      const updates = d.controller.update(fsInformer.indexer.list() as FlowSchema[], plInformer.indexer.list() as PriorityLevelConfiguration[]);
      for (const u of updates) {
        // Past the strategies, so only the status changes (as kube's apply to the status subresource).
        d.stores.flowSchemas.updateUnchecked(systemContext(), u.name, (cur) => {
          const fs = structuredClone(cur) as FlowSchema;
          const others = (fs.status?.conditions ?? []).filter((c) => c.type !== 'Dangling');
          const old = fs.status?.conditions?.find((c) => c.type === 'Dangling');
          const condition = old?.status === u.condition.status ? { ...u.condition, lastTransitionTime: old.lastTransitionTime ?? u.condition.lastTransitionTime } : u.condition;
          fs.status = { ...fs.status, conditions: [...others, condition] };
          return fs;
        }, { dryRun: false }).catch((err: unknown) => { if (!isNotFound(err)) console.error('apf: FlowSchema status:', err); });
      }
    });
  };
  const handler = { onAdd: sync, onUpdate: sync, onDelete: sync };
  const offs: (() => void)[] = [];
  let ensureTimer: NodeJS.Timeout | undefined;
  let rebalanceTimer: NodeJS.Timeout | undefined;
  let stopPolling: (() => void) | undefined;
  return {
    consumer: {
      name: 'priority-and-fairness-config-consumer',
      start: () => {
        offs.push(fsInformer.addEventHandler(handler), plInformer.addEventHandler(handler));
        rebalanceTimer = setInterval(() => d.controller.updateBorrowing(), REBALANCE_INTERVAL_MS).unref();
        stopPolling = pollObjectCounts();
        sync();
      },
      stop: () => { stopped = true; clearInterval(rebalanceTimer); stopPolling?.(); for (const off of offs) off(); },
    },
    filter: { name: 'priority-and-fairness-filter', start: () => {} },
    producer: {
      name: 'priority-and-fairness-config-producer',
      start: async () => {
        await ensureAPFBootstrapConfiguration(d.stores);
        ensureTimer = setInterval(() => {
          ensureAPFBootstrapConfiguration(d.stores).catch((err: unknown) => { console.error('apf: bootstrap configuration:', err); });
        }, ENSURE_INTERVAL_MS).unref();
      },
      stop: () => { clearInterval(ensureTimer); },
    },
  };
}

type FlowControlHooks = ReturnType<typeof flowControlHooks>;

/**
 * Priority and fairness for a server (undefined parts when --enable-priority-and-fairness=false):
 * the controller over `serverConcurrencyLimit` seats, its hooks (when the flowcontrol API is
 * served), and the dump endpoints.
 */
export function newFlowControl(enabled: boolean, serverConcurrencyLimit: number, byName: ReadonlyMap<string, ResourceStore<KubeObject>>,
  informer: FlowControlHookDeps['informer']): { controller: APFController | undefined; hooks: FlowControlHooks | undefined; dumps: [string, NonResourceHandler][] } {
  if (!enabled) return { controller: undefined, hooks: undefined, dumps: [] };
  const controller = exportMetricsOf(new APFController(serverConcurrencyLimit));
  controller.statsSource = (gr) => objectStats(gr);
  const fs = byName.get('flowschemas.flowcontrol.apiserver.k8s.io');
  const pl = byName.get('prioritylevelconfigurations.flowcontrol.apiserver.k8s.io');
  const hooks = fs === undefined || pl === undefined ? undefined
    : flowControlHooks({ controller, stores: { flowSchemas: fs, priorityLevels: pl }, informer });
  const dumps = dumpHandlers(controller).map(([p, h]): [string, NonResourceHandler] => [p, (_req, res, state) => h(res, state.url.searchParams)]);
  return { controller, hooks, dumps };
}
