// What the pvc-protection and pv-protection controllers share: they follow one store, and when
// an object marked for deletion still carries their finalizer and is no longer in use, they
// remove the finalizer (and the store then deletes the object).
// Counterpart of pkg/controller/volume/pvcprotection and pkg/controller/volume/pvprotection.
import { isConflict, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { Store } from '../registry/generic/store.ts';

const RETRY_MS = 500;

export abstract class ProtectionController {
  protected readonly abort = new AbortController();
  private readonly working = new Set<string>();
  private readonly again = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** namespace/name of every object seen terminating with the finalizer and not yet released. */
  protected readonly terminating = new Set<string>();

  constructor(protected readonly store: Store<KubeObject>, private readonly finalizer: string, private readonly label: string) {}

  /** Whether the object is still in use, so its finalizer must stay. */
  protected abstract inUse(obj: KubeObject): Promise<boolean>;

  async start(): Promise<void> {
    await this.follow(this.store, (type, obj) => {
      const key = keyOf(obj);
      if (type === 'DELETED') { this.terminating.delete(key); return; }
      if (this.pending(obj)) { this.terminating.add(key); this.enqueue(key); }
    });
  }

  stop(): void {
    this.abort.abort();
    for (const t of this.timers) clearTimeout(t);
  }

  /** Runs `onEvent` for every ADDED, MODIFIED and DELETED event of `store` until stopped. */
  protected async follow(store: Store<KubeObject>, onEvent: (type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject) => void): Promise<void> {
    const w = await store.watch(systemContext('', this.abort.signal), {});
    this.abort.signal.addEventListener('abort', () => w.stop());
    void (async () => {
      try {
        for await (const ev of w) {
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED') onEvent(ev.type, ev.object);
        }
      } catch {
        // the store closed: the server is stopping
      }
    })();
  }

  private pending(obj: KubeObject): boolean {
    return obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).includes(this.finalizer);
  }

  protected enqueue(key: string): void {
    if (this.abort.signal.aborted) return;
    if (this.working.has(key)) { this.again.add(key); return; }
    this.working.add(key);
    void this.sync(key).then((done) => {
      this.working.delete(key);
      const rerun = this.again.delete(key);
      if (rerun) this.enqueue(key);
      else if (!done && !this.abort.signal.aborted) {
        const t = setTimeout(() => { this.timers.delete(t); this.enqueue(key); }, RETRY_MS);
        this.timers.add(t);
      }
    });
  }

  /** Resolves false when it should be tried again later (a conflict or an error). */
  private async sync(key: string): Promise<boolean> {
    const [namespace = '', name = ''] = key.includes('/') ? key.split('/') : ['', key];
    const ctx = systemContext(namespace);
    try {
      const obj = await this.store.get(ctx, name, {});
      if (!this.pending(obj)) { this.terminating.delete(key); return true; }
      if (await this.inUse(obj)) return true; // an event of what uses it brings it back
      await this.store.update(ctx, name, {
        preconditions: { uid: obj.metadata.uid ?? '' },
        updatedObject: (_c, cur) => {
          if (cur === undefined) return obj;
          const next = structuredClone(cur);
          const rest = (cur.metadata.finalizers ?? []).filter((f) => f !== this.finalizer);
          if (rest.length > 0) next.metadata.finalizers = rest;
          else delete next.metadata.finalizers;
          return next;
        },
      }, undefined, undefined, false, { dryRun: false });
      this.terminating.delete(key);
      return true;
    } catch (err) {
      if (isNotFound(err)) { this.terminating.delete(key); return true; }
      if (!isConflict(err)) console.error(`${this.label}: ${key}:`, err);
      return false;
    }
  }
}

export const keyOf = (obj: KubeObject): string =>
  obj.metadata.namespace !== undefined && obj.metadata.namespace !== '' ? `${obj.metadata.namespace}/${obj.metadata.name ?? ''}` : obj.metadata.name ?? '';
