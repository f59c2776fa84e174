// kube's list library (isSorted, sum, min, max, indexOf, lastIndexOf) and cel-go's ext lists v3
// (slice, flatten, lists.range, reverse, distinct, sort, sortBy, first, last) as kube v1.36 enables it.
// Go counterparts: k8s.io/apiserver/pkg/cel/library/lists.go, github.com/google/cel-go/ext/lists.go.
import type { Environment } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { Optional } from '@marcbachmann/cel-js';
import { celEquals } from '../values.ts';
import { checkedInt, COMPARABLE, compare, def, elements, fail, namespace } from './util.ts';

function sum(type: string, l: unknown[]): unknown {
  switch (type) {
    case 'int': return l.reduce<bigint>((a, b) => checkedInt(a + (b as bigint)), 0n);
    case 'uint': return new UnsignedInt(l.reduce<bigint>((a, b) => a + (b as UnsignedInt).valueOf(), 0n));
    case 'double': return l.reduce<number>((a, b) => a + (b as number), 0);
    default: {
      let total = 0n;
      for (const d of l as Duration[]) total += d.seconds * 1_000_000_000n + BigInt(d.nanos);
      const s = total / 1_000_000_000n;
      return new Duration(s, Number(total - s * 1_000_000_000n));
    }
  }
}

function extreme(name: 'min' | 'max', l: unknown[]): unknown {
  if (l.length === 0) fail(`${name} called on empty list`);
  let r = l[0];
  for (const x of l.slice(1)) {
    const c = compare(r, x);
    if ((name === 'min' && c === 1) || (name === 'max' && c === -1)) r = x;
  }
  return r;
}

function flatten(l: unknown[], depth: bigint): unknown[] {
  if (depth < 0n) fail('level must be non-negative');
  const out: unknown[] = [];
  for (const x of l) {
    if ((Array.isArray(x) || x instanceof Set) && depth > 0n) out.push(...flatten(elements(x), depth - 1n));
    else out.push(x);
  }
  return out;
}

function sortList(l: unknown[]): unknown[] {
  return [...l].sort(compare);
}

export function registerLists(env: Environment): void {
  for (const t of COMPARABLE) {
    def(env, `list<${t}>.isSorted(): bool`, (l: unknown) => {
      const xs = elements(l);
      for (let i = 1; i < xs.length; i++) if (compare(xs[i - 1], xs[i]) === 1) return false;
      return true;
    });
    def(env, `list<${t}>.min(): ${t}`, (l: unknown) => extreme('min', elements(l)));
    def(env, `list<${t}>.max(): ${t}`, (l: unknown) => extreme('max', elements(l)));
    def(env, `list<${t}>.sort(): list<${t}>`, (l: unknown) => sortList(elements(l)));
  }
  for (const t of ['int', 'uint', 'double', 'google.protobuf.Duration']) {
    def(env, `list<${t}>.sum(): ${t}`, (l: unknown) => sum(t, elements(l)));
  }
  def(env, 'list<A>.indexOf(A): int', (l: unknown, x: unknown) => BigInt(elements(l).findIndex((y) => celEquals(y, x))));
  def(env, 'list<A>.lastIndexOf(A): int', (l: unknown, x: unknown) => BigInt(elements(l).findLastIndex((y) => celEquals(y, x))));

  def(env, 'list<A>.slice(int, int): list<A>', (l: unknown, start: bigint, end: bigint) => {
    const xs = elements(l);
    if (start < 0n || end < 0n) fail(`cannot slice(${start}, ${end}), negative indexes not supported`);
    if (start > end) fail(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
    if (BigInt(xs.length) < end) fail(`cannot slice(${start}, ${end}), list is length ${xs.length}`);
    return xs.slice(Number(start), Number(end));
  });
  def(env, 'list<list<A>>.flatten(): list<A>', (l: unknown) => flatten(elements(l), 1n));
  def(env, 'list<dyn>.flatten(int): list<dyn>', (l: unknown, depth: bigint) => flatten(elements(l), depth));
  namespace(env, 'lists', 'kubernetes.ListsNamespace');
  def(env, 'kubernetes.ListsNamespace.range(int): list<int>', (_ns: unknown, n: bigint) => {
    const out: bigint[] = [];
    for (let i = 0n; i < n; i++) out.push(i);
    return out;
  });
  def(env, 'list<A>.reverse(): list<A>', (l: unknown) => [...elements(l)].reverse());
  def(env, 'list<A>.distinct(): list<A>', (l: unknown) => {
    const out: unknown[] = [];
    for (const x of elements(l)) if (!out.some((y) => celEquals(x, y))) out.push(x);
    return out;
  });
  def(env, 'list<A>.first(): optional<A>', (l: unknown) => {
    const xs = elements(l);
    return xs.length === 0 ? Optional.none() : Optional.of(xs[0]);
  });
  def(env, 'list<A>.last(): optional<A>', (l: unknown) => {
    const xs = elements(l);
    return xs.length === 0 ? Optional.none() : Optional.of(xs[xs.length - 1]);
  });
}
