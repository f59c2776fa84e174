import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isConfigMapKey, isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName,
  isValidLabelValue, isValidPortName, isValidPortNum,
} from './validation.ts';

const SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const KEY_NAME_MSG = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('string validators', () => {
  const cases: { name: string; fn: (v: string) => string[]; value: string; want: string[] }[] = [
    { name: 'subdomain ok', fn: isDNS1123Subdomain, value: 'example.com', want: [] },
    { name: 'subdomain upper', fn: isDNS1123Subdomain, value: 'Example', want: [SUBDOMAIN_MSG] },
    { name: 'subdomain too long', fn: isDNS1123Subdomain, value: 'a'.repeat(254), want: ['must be no more than 253 characters'] },
    { name: 'label ok', fn: isDNS1123Label, value: '123-abc', want: [] },
    { name: 'label dots', fn: isDNS1123Label, value: 'a.b', want: ['must not contain dots'] },
    { name: 'label bad', fn: isDNS1123Label, value: 'a_b', want: [LABEL_MSG] },
    { name: 'label long', fn: isDNS1123Label, value: 'a'.repeat(64), want: ['must be no more than 63 characters'] },
    { name: '1035 digit start', fn: isDNS1035Label, value: '1abc', want: [DNS1035_MSG] },
    { name: 'qualified ok', fn: isQualifiedName, value: 'example.com/My_Name', want: [] },
    { name: 'qualified empty prefix', fn: isQualifiedName, value: '/a', want: ['prefix part must be non-empty'] },
    { name: 'qualified bad prefix', fn: isQualifiedName, value: 'Ex/a', want: [`prefix part ${SUBDOMAIN_MSG}`] },
    { name: 'qualified prefix too long (bytes, as content.IsLabelKey)', fn: isQualifiedName, value: `${'a'.repeat(254)}/a`, want: ['prefix part must be no more than 253 bytes'] },
    { name: 'qualified empty name', fn: isQualifiedName, value: '', want: ['name part must be non-empty', KEY_NAME_MSG] },
    { name: 'qualified long name', fn: isQualifiedName, value: 'a'.repeat(64), want: ['name part must be no more than 63 bytes'] },
    { name: 'qualified too many slashes', fn: isQualifiedName, value: 'a/b/c',
      want: ["a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"] },
    { name: 'label value empty ok', fn: isValidLabelValue, value: '', want: [] },
    { name: 'label value bad', fn: isValidLabelValue, value: '-x',
      want: ["a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"] },
    { name: 'config key ok', fn: isConfigMapKey, value: 'a.b_C-1', want: [] },
    { name: 'config key dotdot', fn: isConfigMapKey, value: '..a', want: ["must not start with '..'"] },
    { name: 'config key slash', fn: isConfigMapKey, value: 'a/b',
      want: ["a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"] },
    { name: 'port name ok', fn: isValidPortName, value: 'http-2', want: [] },
    { name: 'port name bad', fn: isValidPortName, value: '-1--',
      want: ['must contain at least one letter (a-z)', 'must not contain consecutive hyphens', 'must not begin or end with a hyphen'] },
    { name: 'port name long', fn: isValidPortName, value: 'a'.repeat(16), want: ['must be no more than 15 characters'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(c.fn(c.value), c.want));
});

describe('isValidPortNum', () => {
  for (const [p, ok] of [[0, false], [1, true], [65535, true], [65536, false]] as const) {
    it(`port ${p}`, () => assert.deepEqual(isValidPortNum(p), ok ? [] : ['must be between 1 and 65535, inclusive']));
  }
});
