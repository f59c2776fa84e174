import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import type { CustomResourceDefinition } from '../v1/types.ts';
import { defaultCRD } from './defaults.ts';
import { crdStrategy } from './strategy.ts';
import { validateCRD, validateCRDUpdate } from './validation.ts';
import { systemContext } from '../../apimachinery/request/context.ts';

function crd(mutate: (c: CustomResourceDefinition) => void = () => {}): CustomResourceDefinition {
  const c: CustomResourceDefinition = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com', scope: 'Namespaced',
      names: { plural: 'crontabs', kind: 'CronTab' },
      versions: [{ name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } } } } }],
    },
  };
  defaultCRD(c);
  // What create's prepare records before validation runs.
  c.status = { storedVersions: ['v1'] };
  mutate(c);
  return c;
}

describe('CRD defaults', () => {
  it('fills singular, listKind and conversion', () => {
    const c = crd();
    assert.equal(c.spec.names.singular, 'crontab');
    assert.equal(c.spec.names.listKind, 'CronTabList');
    assert.deepEqual(c.spec.conversion, { strategy: 'None' });
  });
});

describe('validateCRD', () => {
  it('accepts a valid CRD', () => assert.deepEqual(validateCRD(crd()), []));
  const cases: { name: string; mutate: (c: CustomResourceDefinition) => void; want: string }[] = [
    { name: 'name not plural.group', mutate: (c) => { c.metadata.name = 'x.stable.example.com'; },
      want: 'metadata.name: Invalid value: "x.stable.example.com": must be spec.names.plural+"."+spec.group' },
    { name: 'group without dot', mutate: (c) => { c.spec.group = 'stable'; c.metadata.name = 'crontabs.stable'; },
      want: 'spec.group: Invalid value: "stable": should be a domain with at least one dot' },
    { name: 'bad scope', mutate: (c) => { c.spec.scope = 'Global'; },
      want: 'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"' },
    { name: 'two storage versions', mutate: (c) => { c.spec.versions.push({ ...structuredClone(c.spec.versions[0]!), name: 'v2' }); },
      want: 'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{...}: must have exactly one version marked as storage version' },
    { name: 'duplicate versions', mutate: (c) => { c.spec.versions.push({ ...structuredClone(c.spec.versions[0]!), storage: false }); },
      want: 'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{...}: must contain unique version names' },
    { name: 'none served', mutate: (c) => { c.spec.versions[0]!.served = false; },
      want: 'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{...}: must have at least one version marked as served' },
    { name: 'schema missing', mutate: (c) => { delete c.spec.versions[0]!.schema; },
      want: 'spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required' },
    { name: 'field without type', mutate: (c) => { c.spec.versions[0]!.schema = { openAPIV3Schema: { type: 'object', properties: { spec: {} } } }; },
      want: 'spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields' },
    { name: 'root not object', mutate: (c) => { c.spec.versions[0]!.schema = { openAPIV3Schema: { type: 'string' } }; },
      want: 'spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root' },
    { name: 'array without items', mutate: (c) => { c.spec.versions[0]!.schema = { openAPIV3Schema: { type: 'object', properties: { l: { type: 'array' } } } }; },
      want: 'spec.validation.openAPIV3Schema.properties[l].items: Required value: must be specified' },
    { name: 'kind equals listKind', mutate: (c) => { c.spec.names.listKind = 'CronTab'; },
      want: 'spec.names.listKind: Invalid value: "CronTab": kind and listKind may not be the same' },
    { name: 'plural missing', mutate: (c) => { c.spec.names.plural = ''; c.metadata.name = '.stable.example.com'; },
      want: 'spec.names.plural: Required value' },
    { name: 'no versions', mutate: (c) => { delete (c.spec as { versions?: unknown }).versions; delete c.status; },
      want: 'spec.versions: Invalid value: null: must have exactly one version marked as storage version' },
    { name: 'no stored version', mutate: (c) => { delete c.status; },
      want: 'status.storedVersions: Invalid value: null: must have at least one stored version' },
    { name: 'storage version not stored', mutate: (c) => { c.status = { storedVersions: ['v0'] }; },
      want: 'status.storedVersions: Invalid value: ["v0"]: must have the storage version v1' },
    { name: 'stored version dropped from spec', mutate: (c) => { c.status = { storedVersions: ['v1', 'v0'] }; },
      want: 'status.storedVersions[1]: Invalid value: "v0": missing from spec.versions; v0 was previously a storage version, and must remain ' +
        'in spec.versions until a storage migration ensures no data remains persisted in v0 and removes v0 from status.storedVersions' },
    { name: 'bad printer column type', mutate: (c) => { c.spec.versions[0]!.additionalPrinterColumns = [{ name: 'X', type: 'map', jsonPath: '.spec.x' }]; },
      want: 'spec.versions[0].additionalPrinterColumns[0].type: Unsupported value: "map": supported values: "integer", "number", "string", "boolean", "date"' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.ok(validateCRD(crd(c.mutate)).map(formatFieldError).includes(c.want),
      `${validateCRD(crd(c.mutate)).map(formatFieldError).join('\n')}`));
  }
  it('keeps group and plural immutable on update', () => {
    const old = crd();
    const next = crd((c) => { c.spec.names.plural = 'tabs'; });
    assert.ok(validateCRDUpdate(next, old).map(formatFieldError).includes('spec.names.plural: Invalid value: "tabs": field is immutable'));
  });
});

describe('CRD strategy', () => {
  it('resets status and records the storage version on create; conditions show as null (no omitempty in Go)', () => {
    const c = crd((x) => { x.status = { conditions: [{ type: 'Established', status: 'True' }] }; });
    crdStrategy.prepareForCreate(systemContext(''), c);
    assert.deepEqual(c.status, { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    assert.equal(JSON.stringify(c.status), '{"conditions":null,"acceptedNames":{"plural":"","kind":""},"storedVersions":["v1"]}');
    assert.equal(c.metadata.generation, 1);
  });
  it('bumps generation on spec change only and keeps status', () => {
    const old = crd((x) => { x.metadata.generation = 1; x.status = { storedVersions: ['v1'] }; });
    const same = crd((x) => { x.status = {}; });
    crdStrategy.prepareForUpdate(systemContext(''), same, old);
    assert.equal(same.metadata.generation, 1); // the stored generation, as the Store sets it anyway
    assert.deepEqual(same.status, { storedVersions: ['v1'] });
    const changed = crd((x) => { x.spec.names.shortNames = ['ct']; });
    crdStrategy.prepareForUpdate(systemContext(''), changed, old);
    assert.equal(changed.metadata.generation, 2);
  });
});

describe('validateCRDUpdate: rule costs of unchanged schemas', () => {
  // A per-expression cost over the limit (a nested loop over an unbounded list), with a total over the CRD's too.
  const expensive = (c: CustomResourceDefinition): void => {
    const v = c.spec.versions[0];
    if (v === undefined) throw new Error('no version');
    v.schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { l: { type: 'array', items: { type: 'string' } } },
      'x-kubernetes-validations': [{ rule: 'self.l.all(x, self.l.all(y, x == y))' }] } } } };
  };
  const fields = (c: CustomResourceDefinition, old?: CustomResourceDefinition): string[] =>
    (old === undefined ? validateCRD(c) : validateCRDUpdate(c, old)).map((e) => `${e.field}: ${e.detail.slice(0, 40)}`);
  const rule = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule';
  it('a new schema is held to the per-expression limit', () => {
    assert.ok(fields(crd(expensive)).includes(`${rule}: estimated rule cost exceeds budget by fa`));
  });
  it('an unchanged schema is not, as kube (the CRD total still counts)', () => {
    const old = crd(expensive);
    const next = crd(expensive);
    next.metadata.labels = { a: 'b' };
    assert.deepEqual(fields(next, old).filter((f) => f.includes('estimated rule cost exceeds')), []);
    assert.ok(fields(next, old).some((f) => f.startsWith('spec.validation.openAPIV3Schema: x-kubernetes-validations estimated')));
  });
});
