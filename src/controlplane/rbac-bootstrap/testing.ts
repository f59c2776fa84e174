// Real RBAC stores on a throwaway sqlite file, for the tests of this folder.
// No Go counterpart: test fixtures.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { Scheme } from '../../apimachinery/runtime/scheme.ts';
import { rbacGroup } from '../../apis/rbac/install.ts';
import type { ResourceStore } from '../../registry/rest/strategy.ts';
import { openSqliteBackend } from '../../storage/sqlite/sqlite-backend.ts';
import { buildGroupREST } from '../group-rest.ts';
import { rbacStoresFrom, type RBACStores } from './bootstrap-roles.ts';

export interface TestStores extends RBACStores {
  readonly all: ReadonlyMap<string, ResourceStore<KubeObject>>;
  close(): Promise<void>;
}

export async function newTestStores(): Promise<TestStores> {
  const dir = await mkdtemp(join(tmpdir(), 'kapi-rbac-bootstrap-'));
  const backend = await openSqliteBackend({ path: join(dir, 'state.db') });
  const rest = buildGroupREST(new Scheme(), backend, '/registry', rbacGroup(), () => true, () => undefined);
  return {
    ...rbacStoresFrom(rest.stores),
    all: rest.stores,
    async close() {
      await backend.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
