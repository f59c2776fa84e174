// What kapi is compared against in one bench run. measure.ts drives kapi and a Baseline through the
// same phases, in the same order, with the same budgets; each Baseline decides what the least work
// behind each kapi figure is (bytes from a bare HTTPS server, or raw etcd requests).
// No Go counterpart: the bench.
import type { Budget, Throughput, WatchProbe } from './phases.ts';

export interface Baseline {
  /** Names the baseline in the progress notes, e.g. 'bare https'. */
  readonly label: string;
  /**
   * The counterpart of creating ConfigMaps in namespace `ns`; called only after kapi created some
   * there. Rejects with the first failed operation's error.
   */
  create(ns: string, budget: Budget): Promise<Throughput>;
  /** The counterpart of GETs of single objects; called after create. */
  get(ns: string, budget: Budget): Promise<Throughput>;
  /** The counterpart of conflict-free updates; called after create. */
  update(ns: string, budget: Budget): Promise<Throughput>;
  /**
   * The counterpart of one full LIST of namespace `ns` (which holds `items` objects in kapi);
   * resolves with its latency in ms. Rejects when the baseline saw a different number of items.
   */
  list(ns: string, items: number): Promise<number>;
  /** The counterpart of a watch on `ns`; called after kapi wrote there. */
  openWatchProbe(ns: string): Promise<WatchProbe>;
}
