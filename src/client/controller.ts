// The shape every kube controller has (pkg/controller/*): informers whose handlers turn changes
// into keys on a rate-limited work queue, and workers that sync one key at a time. Controllers
// take their informers from the server's shared factory; built without one (unit tests), they
// make and own private ones.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { ListWatcher } from './cache/list-watch.ts';
import { SharedInformer, type HandlerOptions, type ResourceEventHandler } from './cache/shared-informer.ts';
import { RateLimitingQueue } from './workqueue/queue.ts';
import { ItemExponentialFailureRateLimiter, type RateLimiter } from './workqueue/rate-limiter.ts';
import { runWorkers, type SyncResult } from './workqueue/worker.ts';

/** Where a controller gets the informer of a resource (SharedInformerFactory.informerFor). */
export type InformerSource = (lw: ListWatcher, name: string) => SharedInformer;

export interface ControllerOptions {
  /** The shared informers; absent: the controller makes its own and stops them with itself. */
  readonly informers?: InformerSource;
  readonly workers?: number;
  readonly rateLimiter?: RateLimiter<string>;
  /** Sync errors not worth a log line (conflicts); they are retried all the same. */
  readonly quiet?: (err: unknown) => boolean;
  /** Where sync failures go. Default: console.error. */
  readonly log?: (message: string) => void;
}

export abstract class Controller {
  protected readonly queue: RateLimitingQueue<string>;
  private readonly followed: SharedInformer[] = [];
  private readonly owned: SharedInformer[] = [];
  private readonly removers = new Map<SharedInformer, (() => void)[]>();
  private workers: Promise<void> | undefined;

  constructor(readonly name: string, private readonly copts: ControllerOptions = {}) {
    this.queue = new RateLimitingQueue(copts.rateLimiter ?? new ItemExponentialFailureRateLimiter(5, 1_000_000));
  }

  /** Brings one key to its wanted state; throws to be retried with backoff. */
  protected abstract sync(key: string): Promise<SyncResult>;

  /** The informer of a resource, its handler registered until stop(). */
  protected follow(lw: ListWatcher, name: string, handler: ResourceEventHandler, opts?: HandlerOptions): SharedInformer {
    const informer = this.informerOf(lw, name);
    const removers = this.removers.get(informer) ?? [];
    removers.push(informer.addEventHandler(handler, opts));
    this.removers.set(informer, removers);
    return informer;
  }

  /** The informer of a resource, without a handler (a lister). */
  protected informerOf(lw: ListWatcher, name: string): SharedInformer {
    let informer: SharedInformer;
    if (this.copts.informers !== undefined) informer = this.copts.informers(lw, name);
    else {
      informer = new SharedInformer<KubeObject>(lw, { name });
      this.owned.push(informer);
    }
    if (!this.followed.includes(informer)) this.followed.push(informer);
    return informer;
  }

  /** Stops following a resource (a CRD gone): its handlers go, and a private informer stops. */
  protected unfollow(informer: SharedInformer): void {
    for (const r of this.removers.get(informer) ?? []) r();
    this.removers.delete(informer);
    const i = this.owned.indexOf(informer);
    if (i >= 0) { informer.stop(); this.owned.splice(i, 1); }
    const j = this.followed.indexOf(informer);
    if (j >= 0) this.followed.splice(j, 1);
  }

  /**
   * Starts the informers and resolves once their first lists are done. The workers start when
   * every informer has synced (WaitForCacheSync): at once, or, when a first list failed (an
   * object nobody can decode), whenever its retries succeed; a controller never acts on a
   * partial cache, and the server does not wait for it.
   */
  async start(): Promise<void> {
    const informers = [...this.followed];
    await Promise.all(informers.map((i) => i.start()));
    if (informers.every((i) => i.hasSynced())) {
      this.runWorkers();
      return;
    }
    void Promise.all(informers.map((i) => i.waitForSync())).then((synced) => {
      if (synced.every(Boolean) && !this.stopped) this.runWorkers();
    });
  }

  /** The workers run: every informer synced (a post-start hook's check). */
  hasSynced(): boolean { return this.workers !== undefined; }

  private runWorkers(): void {
    this.workers ??= runWorkers(this.queue, this.copts.workers ?? 1, (k) => this.sync(k), {
      name: this.name, ...(this.copts.quiet !== undefined ? { quiet: this.copts.quiet } : {}),
      ...(this.copts.log !== undefined ? { log: this.copts.log } : {}),
    });
  }

  stop(): void {
    for (const rs of this.removers.values()) for (const r of rs) r();
    this.removers.clear();
    this.queue.shutDown();
    for (const i of this.owned.splice(0)) i.stop();
  }

  get stopped(): boolean { return this.queue.isShuttingDown; }
}
