// Background upkeep of the sqlite backend: periodic compaction and deletion of expired keys.
// Timers are unref'd: they never keep the process alive.
// No Go counterpart: the embedded store (compaction as k8s.io/apiserver/pkg/storage/etcd3/compact.go
// does it for etcd).

export interface MaintainedBackend {
  compact(revision: number): Promise<void>;
  compactedRevision(): Promise<number>;
  currentRevision(): Promise<number>;
  sweepExpired(): number;
}

export interface Maintenance {
  stop(): void;
}

export function startMaintenance(backend: MaintainedBackend, opts: {
  readonly compactionIntervalMs: number;
  readonly ttlSweepIntervalMs: number;
}): Maintenance {
  const timers: NodeJS.Timeout[] = [];
  if (opts.compactionIntervalMs > 0) {
    // As kube's compactor: compact to the revision seen one interval ago, so clients always
    // have at least one interval of history to resume watches and continue lists from.
    let seen = 0;
    let running = false;
    timers.push(setInterval(() => {
      if (running) return;
      running = true;
      void (async () => {
        const target = seen;
        seen = await backend.currentRevision();
        if (target > await backend.compactedRevision()) await backend.compact(target);
      })().catch(() => { /* closed or already compacted: the next tick retries */ }).finally(() => { running = false; });
    }, opts.compactionIntervalMs).unref());
  }
  if (opts.ttlSweepIntervalMs > 0) {
    timers.push(setInterval(() => {
      try { backend.sweepExpired(); } catch { /* closed: stop() follows */ }
    }, opts.ttlSweepIntervalMs).unref());
  }
  return { stop: () => { for (const t of timers) clearInterval(t); } };
}
