import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bytesPrefixEnd } from './etcd3-backend.ts';
import { parseEndpoint } from './client.ts';
import { supportsWatchProgress } from './version.ts';

describe('supportsWatchProgress', () => {
  for (const c of [
    { version: '3.4.23', want: false },
    { version: '3.4.31', want: true },
    { version: '3.5.12', want: false },
    { version: '3.5.13', want: true },
    { version: '3.6.0', want: true },
    { version: '3.7.1', want: true },
    { version: '4.0.0', want: true },
    { version: '3.3.27', want: false },
    { version: 'garbage', want: false },
  ]) {
    it(`${c.version} → ${String(c.want)}`, () => assert.equal(supportsWatchProgress(c.version), c.want));
  }
});

describe('bytesPrefixEnd', () => {
  for (const c of [
    { name: 'increments the last byte', prefix: [0x61, 0x62], want: [0x61, 0x63] },
    { name: 'drops trailing 0xff bytes', prefix: [0x61, 0xff, 0xff], want: [0x62] },
    { name: 'all 0xff: no end', prefix: [0xff], want: [0x00] },
    { name: 'empty: no end', prefix: [], want: [0x00] },
  ]) {
    it(c.name, () => assert.deepEqual([...bytesPrefixEnd(Buffer.from(c.prefix))], c.want));
  }
});

describe('parseEndpoint', () => {
  for (const c of [
    { endpoint: 'http://127.0.0.1:2379', want: { target: '127.0.0.1:2379', tls: false } },
    { endpoint: 'https://etcd.local:2379/', want: { target: 'etcd.local:2379', tls: true } },
    { endpoint: '10.0.0.1:2379', want: { target: '10.0.0.1:2379', tls: false } },
  ]) {
    it(c.endpoint, () => assert.deepEqual(parseEndpoint(c.endpoint), c.want));
  }
});
