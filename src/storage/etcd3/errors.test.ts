import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { isStorageError } from '../interfaces.ts';
import { mapEtcdError } from './errors.ts';

describe('mapEtcdError', () => {
  const cases = [
    { name: 'etcd request too large', err: { code: GrpcStatus.INVALID_ARGUMENT, details: 'etcdserver: request is too large' }, code: 'RequestTooLarge' },
    { name: 'gRPC message limit', err: { code: GrpcStatus.RESOURCE_EXHAUSTED, details: 'Received message larger than max (3000000 vs 2097152)' }, code: 'RequestTooLarge' },
    { name: 'unavailable', err: { code: GrpcStatus.UNAVAILABLE, details: 'connection refused' }, code: 'Unreachable' },
    { name: 'other', err: { code: GrpcStatus.PERMISSION_DENIED, details: 'etcdserver: permission denied' }, code: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const mapped = mapEtcdError('/k', c.err);
      if (c.code === undefined) assert.equal(isStorageError(mapped), false);
      else assert.ok(isStorageError(mapped, c.code as 'RequestTooLarge' | 'Unreachable'), String(mapped));
      if (c.code === 'RequestTooLarge') assert.equal(mapped.message, 'etcdserver: request is too large');
    });
  }
});
