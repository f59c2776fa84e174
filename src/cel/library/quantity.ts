// kube's quantity library: quantity(string), isQuantity(string) and the methods (sign, compareTo,
// isGreaterThan, isLessThan, asApproximateFloat, asInteger, isInteger, add, sub), on kapi's
// resource.Quantity (exact to nano-units, as kube's int64Amount is for everything but huge values).
// Go counterparts: k8s.io/apiserver/pkg/cel/library/quantity.go, k8s.io/apiserver/pkg/cel/quantity.go.
import type { Environment } from '@marcbachmann/cel-js';
import { cmpQuantity, parseQuantity, type Quantity } from '../../apimachinery/resource/quantity.ts';
import { def, fail } from './util.ts';

export class KubeQuantity {
  constructor(readonly q: Quantity) {}
}

const NANO = 1_000_000_000n;
const MAX_INT = 2n ** 63n - 1n;
const MIN_INT = -(2n ** 63n);
const FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

function toQuantity(s: string): KubeQuantity {
  const q = parseQuantity(s);
  if (q !== undefined) return new KubeQuantity(q);
  // resource.ParseQuantity's errors: the overall shape, then the number, then the suffix
  const m = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/.exec(s);
  if (m === null) return fail(FORMAT_WRONG);
  if (!/^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/.test(m[1]!)) return fail('unable to parse numeric part of quantity');
  return fail("unable to parse quantity's suffix");
}

const asInt = (q: Quantity): bigint | undefined => {
  if (q.nano % NANO !== 0n) return undefined;
  const v = q.nano / NANO;
  return v > MAX_INT || v < MIN_INT ? undefined : v;
};

const plus = (a: Quantity, nano: bigint): KubeQuantity => new KubeQuantity({ nano: a.nano + nano, format: a.nano === 0n ? 'DecimalSI' : a.format });

export function registerQuantity(env: Environment): void {
  env.registerType('kubernetes.Quantity', KubeQuantity);
  def(env, 'quantity(string): kubernetes.Quantity', (s: string) => toQuantity(s));
  def(env, 'isQuantity(string): bool', (s: string) => parseQuantity(s) !== undefined);
  const T = 'kubernetes.Quantity';
  // kube declares sign as a global function: sign(quantity('1'))
  def(env, `sign(${T}): int`, (a: KubeQuantity) => BigInt(a.q.nano > 0n ? 1 : a.q.nano < 0n ? -1 : 0));
  def(env, `${T}.isGreaterThan(${T}): bool`, (a: KubeQuantity, b: KubeQuantity) => cmpQuantity(a.q, b.q) === 1);
  def(env, `${T}.isLessThan(${T}): bool`, (a: KubeQuantity, b: KubeQuantity) => cmpQuantity(a.q, b.q) === -1);
  def(env, `${T}.compareTo(${T}): int`, (a: KubeQuantity, b: KubeQuantity) => BigInt(cmpQuantity(a.q, b.q)));
  def(env, `${T}.asApproximateFloat(): double`, (a: KubeQuantity) => Number(a.q.nano) / 1e9);
  def(env, `${T}.asInteger(): int`, (a: KubeQuantity) => asInt(a.q) ?? fail('cannot convert value to integer'));
  def(env, `${T}.isInteger(): bool`, (a: KubeQuantity) => asInt(a.q) !== undefined);
  def(env, `${T}.add(${T}): ${T}`, (a: KubeQuantity, b: KubeQuantity) => plus(a.q, b.q.nano));
  def(env, `${T}.add(int): ${T}`, (a: KubeQuantity, b: bigint) => plus(a.q, b * NANO));
  def(env, `${T}.sub(${T}): ${T}`, (a: KubeQuantity, b: KubeQuantity) => plus(a.q, -b.q.nano));
  def(env, `${T}.sub(int): ${T}`, (a: KubeQuantity, b: bigint) => plus(a.q, -b * NANO));
  env.registerOperator(`${T} == ${T}`, (a: KubeQuantity, b: KubeQuantity) => cmpQuantity(a.q, b.q) === 0);
}
