import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../apimachinery/errors/status-error.ts';
import type { Attributes } from '../interfaces.ts';
import { webhookAccessors } from './accessor.ts';
import { matchConditionsEvaluator } from './match-conditions.ts';
import type { MatchCondition } from './types.ts';

const attrs: Attributes = {
  operation: 'CREATE', kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { group: '', version: 'v1', resource: 'configmaps' },
  subresource: '', name: 'cm', namespace: 'ns', dryRun: false, oldObject: undefined,
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { a: 'b' } } },
  userInfo: { name: 'alice', groups: ['devs'] },
};
const inv = { resource: attrs.resource, subresource: '', kind: attrs.kind };

async function run(conditions: MatchCondition[], failurePolicy = 'Fail'): Promise<boolean | string> {
  const [h] = webhookAccessors('Validating', [{ metadata: { name: 'c' }, webhooks: [{ name: 'w', failurePolicy, matchConditions: conditions }] }]);
  if (h === undefined) throw new Error('no accessor');
  const r = await matchConditionsEvaluator({
    authorize: (a) => ({ decision: a.user.name === 'alice' && a.verb === 'get' ? 'allow' : 'deny', reason: 'test' }),
  })(h, attrs, inv);
  return r instanceof StatusError ? `${String(r.code)} ${r.message}` : r;
}

describe('match conditions', () => {
  const cases: { name: string; conditions: MatchCondition[]; failurePolicy?: string; want: boolean | string }[] = [
    { name: 'all true', conditions: [{ name: 'a', expression: 'object.metadata.labels.a == "b"' }, { name: 'b', expression: 'request.userInfo.username == "alice"' }], want: true },
    { name: 'one false', conditions: [{ name: 'a', expression: 'true' }, { name: 'b', expression: 'oldObject == null && request.operation == "UPDATE"' }], want: false },
    { name: 'an error with Fail', conditions: [{ name: 'a', expression: 'object.metadata.labels.missing == "x"' }],
      want: '403 configmaps "cm" is forbidden: expression \'object.metadata.labels.missing == "x"\' resulted in error: no such key: missing' },
    { name: 'an error with Ignore', conditions: [{ name: 'a', expression: 'object.metadata.labels.missing == "x"' }], failurePolicy: 'Ignore', want: false },
    { name: 'a false condition wins over an error', conditions: [{ name: 'a', expression: 'object.metadata.labels.missing == "x"' }, { name: 'b', expression: 'false' }], want: false },
    { name: 'authorizer: the request\'s resource as the user', conditions: [{ name: 'a', expression: 'authorizer.requestResource.check("get").allowed()' }], want: true },
    { name: 'authorizer: another verb', conditions: [{ name: 'a', expression: 'authorizer.group("").resource("pods").check("delete").allowed()' }], want: false },
    { name: 'request fields', conditions: [{ name: 'a', expression: 'request.kind.kind == "ConfigMap" && request.namespace == "ns" && !request.dryRun' }], want: true },
  ];
  for (const c of cases) it(c.name, async () => assert.deepEqual(await run(c.conditions, c.failurePolicy), c.want));
});
