// Admission attributes for plugin tests, and the status a refusal carries.
// No Go counterpart: test helpers.
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext, type RequestContext, type UserInfo } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation } from '../interfaces.ts';

export interface AttrOptions {
  readonly operation?: Operation;
  readonly group?: string;
  readonly version?: string;
  readonly resource?: string;
  readonly kind?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly oldObject?: KubeObject | undefined;
}

export function attrs(object: KubeObject | undefined, o: AttrOptions = {}): Attributes {
  return {
    operation: o.operation ?? 'CREATE',
    kind: { group: o.group ?? '', version: o.version ?? 'v1', kind: o.kind ?? object?.kind ?? 'Pod' },
    resource: { group: o.group ?? '', version: o.version ?? 'v1', resource: o.resource ?? 'pods' },
    subresource: o.subresource ?? '', name: o.name ?? object?.metadata.name ?? '', namespace: o.namespace ?? object?.metadata.namespace ?? '',
    object, oldObject: o.oldObject, dryRun: false,
  };
}

/** A request context of `user` (the system user when undefined). */
export function userContext(user?: UserInfo, namespace = ''): RequestContext {
  const ctx = systemContext(namespace);
  return user === undefined ? ctx : { ...ctx, user };
}

/** Asserts the promise rejects with a status of this code, reason and message. */
export async function assertStatus(p: Promise<void> | undefined, code: number, reason: string, message: string): Promise<void> {
  await assert.rejects(p ?? Promise.resolve(), (err: unknown) => {
    const st = (err as { status?: { code: number; reason: string; message: string } }).status;
    assert.deepEqual([st?.code, st?.reason, st?.message], [code, reason, message]);
    return true;
  });
}
