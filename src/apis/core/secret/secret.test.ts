import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { Secret } from '../v1/types.ts';
import { defaultSecret, secrets } from './secret.ts';

const ctx = systemContext('default');
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const secret = (extra: Partial<Secret>): Secret => {
  const s: Secret = { metadata: { name: 's', namespace: 'default' }, ...extra };
  defaultSecret(s);
  return s;
};

describe('secrets', () => {
  it('defaults type Opaque and folds stringData into data', () => {
    const s = secret({ stringData: { user: 'admin' }, data: { a: b64('1') } });
    assert.equal(s.type, 'Opaque');
    assert.deepEqual(s.data, { a: b64('1'), user: b64('admin') });
    assert.equal(s.stringData, undefined);
  });
  const cases: { name: string; obj: Secret; want: string[] }[] = [
    { name: 'opaque ok', obj: secret({ data: { k: b64('v') } }), want: [] },
    { name: 'service account token needs the annotation', obj: secret({ type: 'kubernetes.io/service-account-token' }),
      want: ['metadata.annotations[kubernetes.io/service-account.name]: Required value'] },
    { name: 'dockercfg needs its key', obj: secret({ type: 'kubernetes.io/dockercfg' }), want: ['data[.dockercfg]: Required value'] },
    { name: 'dockerconfigjson must be JSON', obj: secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('"x"') } }),
      want: ['data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal string into Go value of type map[string]interface {}'] },
    { name: 'basic auth needs username or password', obj: secret({ type: 'kubernetes.io/basic-auth' }),
      want: ['data[username]: Required value', 'data[password]: Required value'] },
    { name: 'basic auth with password only is fine', obj: secret({ type: 'kubernetes.io/basic-auth', data: { password: b64('p') } }), want: [] },
    { name: 'ssh auth', obj: secret({ type: 'kubernetes.io/ssh-auth' }), want: ['data[ssh-privatekey]: Required value'] },
    { name: 'tls', obj: secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c') } }), want: ['data[tls.key]: Required value'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(secrets.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));
  it('type is immutable and immutable secrets keep data', () => {
    const old = secret({ data: { k: b64('v') }, immutable: true });
    const next = secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c'), 'tls.key': b64('k') }, immutable: true });
    assert.deepEqual(secrets.strategy.validateUpdate(ctx, next, old).map(formatFieldError), [
      'type: Invalid value: "kubernetes.io/tls": field is immutable',
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
  });
  it('field selector on type', () => assert.equal(secrets.selectableFields(secret({}))['type'], 'Opaque'));
});
