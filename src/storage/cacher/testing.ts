// Test helper: a watch cache over the default store, for the storage conformance suite.
// Counterpart of k8s.io/apiserver/pkg/storage/cacher/cacher_testing_utils_test.go.
import type { Backend } from '../backend.ts';
import { jsonCodec } from '../json-codec.ts';
import { newStore, type StoreOptions } from '../store.ts';
import { PODS } from '../testing/fixtures.ts';
import { Cacher, type CacherOptions } from './cacher.ts';

export function newTestCacher(backend: Backend, opts: StoreOptions, extra: Partial<CacherOptions> = {}): Cacher {
  return new Cacher({
    storage: newStore(backend, jsonCodec, opts), backend, codec: jsonCodec, resourcePrefix: PODS,
    ...(opts.newBookmark !== undefined ? { newBookmark: opts.newBookmark } : {}),
    ...(opts.bookmarkIntervalMs !== undefined ? { bookmarkIntervalMs: opts.bookmarkIntervalMs } : {}),
    ...(opts.watchBufferSize !== undefined ? { watchBufferSize: opts.watchBufferSize } : {}),
    ...(opts.freshnessWaitMs !== undefined ? { freshnessWaitMs: opts.freshnessWaitMs } : {}),
    ...extra,
  });
}
