// Watching a configuration file for changes: an inotify watch (fs.watch) for prompt reloads, and a
// poll at a fixed interval as the fallback, since an editor's or a ConfigMap mount's atomic rename
// replaces the watched inode (the watch is then re-added on the next poll). The handler runs once
// right after the watch starts, in case the file changed before it did; it decides itself whether
// the content changed.
// Counterpart of k8s.io/apiserver/pkg/util/filesystem (WatchUntil).
import { watch, type FSWatcher } from 'node:fs';

export interface FileWatch {
  stop(): void;
}

/** Calls `onEvent` on every change notification and every `pollIntervalMs`, until stopped. */
export function watchFileUntil(path: string, pollIntervalMs: number, onEvent: () => void,
  onError: (err: Error) => void): FileWatch {
  let watcher: FSWatcher | undefined;
  let stopped = false;
  const rewatch = (): void => {
    if (watcher !== undefined || stopped) return;
    try {
      const w = watch(path, { persistent: false }, (event) => {
        // A rename replaced or removed the watched inode: watch the path again on the next poll.
        if (event === 'rename') { w.close(); watcher = undefined; }
        onEvent();
      });
      w.on('error', (err) => { w.close(); watcher = undefined; onError(err); });
      watcher = w;
    } catch (err) {
      onError(err instanceof Error ? err : new Error(String(err)));
    }
  };
  rewatch();
  const timer = setInterval(() => { rewatch(); onEvent(); }, pollIntervalMs);
  timer.unref();
  onEvent();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      watcher?.close();
      watcher = undefined;
    },
  };
}

/**
 * `check` as a watch handler that runs one check at a time: an event during a check runs one more
 * after it (never two at once, never a lost change). A rejection goes to `onError`.
 */
export function oneAtATime(check: () => Promise<void>, onError: (err: unknown) => void): () => void {
  let running = false;
  let again = false;
  const run = (): void => {
    if (running) { again = true; return; }
    running = true;
    check().catch(onError).finally(() => {
      running = false;
      if (again) { again = false; run(); }
    });
  };
  return run;
}
