// kube's post-start hooks (k8s.io/apiserver/pkg/server/hooks.go): named steps that run once the
// server is built, each with a health check `poststarthook/<name>` that fails until the step has
// finished; what a step started is stopped on shutdown, in the reverse order.
import type { HealthCheck } from './healthz.ts';

export interface PostStartHook {
  /** kube's hook name where kube has one ("start-system-namespaces-controller"). */
  readonly name: string;
  /**
   * Whether /healthz, /livez and /readyz list it. kube-controller-manager's controllers, which
   * kapi runs in-process, are hooks too but not listed: kube-apiserver does not list them.
   */
  readonly listed?: boolean;
  /** Resolves when the hook's work is done, or its controller runs; a rejection fails the start. */
  start(): Promise<void> | void;
  /** Ends what start began; must not throw. */
  stop?(): Promise<void> | void;
  /**
   * What the hook waits for, when start() goes on without it (an informer whose first list
   * failed and is retried): until it returns true the hook's health check fails, as kube's
   * hook still runs.
   */
  done?(): boolean;
}

export class PostStartHooks {
  private readonly finished = new Set<string>();
  private readonly started: PostStartHook[] = [];

  constructor(readonly hooks: readonly PostStartHook[]) {
    const names = new Set<string>();
    for (const h of hooks) {
      // AddPostStartHook refuses a name twice.
      if (names.has(h.name)) throw new Error(`unable to add ${JSON.stringify(h.name)} because it was already registered`);
      names.add(h.name);
    }
  }

  /** One check per listed hook, in registration order. */
  healthChecks(): HealthCheck[] {
    return this.hooks.filter((h) => h.listed !== false).map((h) => ({
      name: `poststarthook/${h.name}`,
      check: () => { if (!this.finished.has(h.name) || h.done?.() === false) throw new Error('not finished'); },
    }));
  }

  /** Runs the hooks in order; rejects with the first failure (the start fails, as kube exits). */
  async runAll(): Promise<void> {
    for (const h of this.hooks) {
      this.started.push(h);
      await h.start();
      this.finished.add(h.name);
    }
  }

  /** Stops every started hook, last started first. */
  async stopAll(): Promise<void> {
    for (const h of this.started.splice(0).reverse()) {
      try {
        await h.stop?.();
      } catch (err) {
        console.error(`poststarthook/${h.name}: stop:`, err);
      }
    }
  }
}
