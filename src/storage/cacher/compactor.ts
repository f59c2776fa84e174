// The compacted revision as the watch cache sees it, without a request per list: on etcd, what
// the client knows (its own compactions, those a watch reported) and a read every 15 s (another
// server's compactions), as kube's cacher learns compactions from its compactor's poll; where
// reading it is cheap (SQLite), the backend's own answer every time.
// Counterpart of k8s.io/apiserver/pkg/storage/cacher/compactor.go.
import type { Backend } from '../backend.ts';

/** kube's compactorPollPeriod. */
const POLL_MS = 15_000;

export class Compactor {
  private polled = 0;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(private readonly backend: Backend) {
    if (backend.knownCompactedRevision === undefined) return;
    void this.poll();
    this.timer = setInterval(() => { void this.poll(); }, POLL_MS);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    try {
      this.polled = Math.max(this.polled, await this.backend.compactedRevision());
    } catch {
      // The next poll tries again; meanwhile what the client knows holds.
    }
  }

  revision(): Promise<number> {
    const known = this.backend.knownCompactedRevision?.();
    return known === undefined ? this.backend.compactedRevision() : Promise.resolve(Math.max(known, this.polled));
  }

  stop(): void { clearInterval(this.timer); }
}
