// cel-go's sets extension: sets.contains, sets.equivalent, sets.intersects over lists.
// Go counterpart: github.com/google/cel-go/ext/sets.go.
import type { Environment } from '@marcbachmann/cel-js';
import { celEquals } from '../values.ts';
import { def, elements, namespace } from './util.ts';

const has = (l: unknown[], x: unknown): boolean => l.some((y) => celEquals(x, y));

export function registerSets(env: Environment): void {
  const NS = 'kubernetes.SetsNamespace';
  namespace(env, 'sets', NS);
  def(env, `${NS}.contains(list<A>, list<A>): bool`, (_ns: unknown, a: unknown, b: unknown) => {
    const xs = elements(a);
    return elements(b).every((y) => has(xs, y));
  });
  def(env, `${NS}.equivalent(list<A>, list<A>): bool`, (_ns: unknown, a: unknown, b: unknown) => {
    const xs = elements(a);
    const ys = elements(b);
    return ys.every((y) => has(xs, y)) && xs.every((x) => has(ys, x));
  });
  def(env, `${NS}.intersects(list<A>, list<A>): bool`, (_ns: unknown, a: unknown, b: unknown) => {
    const xs = elements(a);
    return elements(b).some((y) => has(xs, y));
  });
}
