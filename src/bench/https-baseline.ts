// The baseline of the embedded-store figures: a bare node:https server answering bodies of the sizes
// kapi answered, driven by the same phase functions and HTTP client as kapi.
// No Go counterpart: the bench.
import type { Baseline } from './baseline.ts';
import type { HttpTarget } from './http-client.ts';
import { createObjects, getObjects, listOnce, newObjectSet, openWatchProbe, updateObjects, type ObjectSet } from './phases.ts';
import { baselineRoutes, type ResponseSizes } from './routes.ts';

/** `sizes` is filled in by the kapi phases; paths read it when they are built. */
export function httpsBaseline(bare: HttpTarget, sizes: ResponseSizes): Baseline {
  const routes = baselineRoutes(sizes);
  const sets = new Map<string, ObjectSet>();
  const setOf = (ns: string): ObjectSet => {
    let set = sets.get(ns);
    if (set === undefined) {
      set = newObjectSet(ns);
      sets.set(ns, set);
    }
    return set;
  };
  return {
    label: 'bare https',
    create: (ns, budget) => createObjects(bare, routes, setOf(ns), 'cm-', budget),
    get: (ns, budget) => getObjects(bare, routes, setOf(ns), budget),
    // The bare server ignores names and resourceVersions: every generation may be the same.
    update: (ns, budget) => updateObjects(bare, routes, setOf(ns), budget, 1),
    list: async (ns) => (await listOnce(bare, routes, ns)).ms,
    openWatchProbe: (ns) => openWatchProbe(bare, routes, ns),
  };
}
