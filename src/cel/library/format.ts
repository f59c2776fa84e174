// kube's format library: named formats (`format.dns1123Label()`, `format.named('uuid')`…) whose
// validate(string) returns optional.none() when valid, else the list of kube's validation messages.
// Go counterpart: k8s.io/apiserver/pkg/cel/library/format.go.
import type { Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../apimachinery/validation/validation.ts';
import { parseGoURL } from './url.ts';
import { def, namespace } from './util.ts';

export class KubeFormat {
  constructor(readonly name: string, readonly validate: (s: string) => string[]) {}
}

/** apimachinery's name validation with prefix: a trailing dash is allowed (generateName). */
const prefixed = (f: (s: string) => string[]) => (s: string): string[] => f(s.length > 1 && s.endsWith('-') ? `${s.slice(0, -1)}a` : s);

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?$/;

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (m === null) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export const NAMED_FORMATS: ReadonlyMap<string, KubeFormat> = new Map([
  ['dns1123Label', new KubeFormat('DNS1123Label', isDNS1123Label)],
  ['dns1123Subdomain', new KubeFormat('DNS1123Subdomain', isDNS1123Subdomain)],
  ['dns1035Label', new KubeFormat('DNS1035Label', isDNS1035Label)],
  ['qualifiedName', new KubeFormat('QualifiedName', isQualifiedName)],
  ['dns1123LabelPrefix', new KubeFormat('DNS1123LabelPrefix', prefixed(isDNS1123Label))],
  ['dns1123SubdomainPrefix', new KubeFormat('DNS1123SubdomainPrefix', prefixed(isDNS1123Subdomain))],
  ['dns1035LabelPrefix', new KubeFormat('DNS1035LabelPrefix', prefixed(isDNS1035Label))],
  ['labelValue', new KubeFormat('LabelValue', isValidLabelValue)],
  ['uri', new KubeFormat('URI', (s) => {
    try { parseGoURL(s, true); return []; } catch (err) { return [(err as Error).message]; }
  })],
  ['uuid', new KubeFormat('uuid', (s) => (UUID.test(s) ? [] : ['does not match the UUID format']))],
  ['byte', new KubeFormat('byte', (s) => (BASE64.test(s) ? [] : ['invalid base64']))],
  ['date', new KubeFormat('date', (s) => (validDate(s) ? [] : ['invalid date']))],
  ['datetime', new KubeFormat('datetime', (s) => (DATETIME.test(s) && !Number.isNaN(new Date(s.replace(' ', 'T')).getTime()) ? [] : ['invalid datetime']))],
]);

export function registerFormat(env: Environment): void {
  const T = 'kubernetes.NamedFormat';
  env.registerType(T, KubeFormat);
  namespace(env, 'format', 'kubernetes.FormatNamespace');
  for (const [name, f] of NAMED_FORMATS) def(env, `kubernetes.FormatNamespace.${name}(): ${T}`, () => f);
  def(env, `kubernetes.FormatNamespace.named(string): optional<${T}>`, (_ns: unknown, name: string) => {
    const f = NAMED_FORMATS.get(name);
    return f === undefined ? Optional.none() : Optional.of(f);
  });
  def(env, `${T}.validate(string): optional<list<string>>`, (f: KubeFormat, s: string) => {
    const errs = f.validate(s);
    return errs.length === 0 ? Optional.none() : Optional.of(errs);
  });
  env.registerOperator(`${T} == ${T}`, (a: KubeFormat, b: KubeFormat) => a.name === b.name);
}
