// Compiled programs by environment and expression: CRD schemas and policies are compiled when they
// are created and again whenever a request needs them, so equal expressions in equal environments
// compile once. Bounded; the oldest entries go first.
// Go counterpart: none in cel-go; kube caches per CRD/policy object (apiextensions' crdHandler,
// the policy plugins' compilers).
import { compile, type CompileResult } from './compile.ts';
import type { CelEnvironment } from './environment.ts';

const MAX_PROGRAMS = 10_000;
const programs = new Map<string, CompileResult>();

/** compile() with a cache: the same result object for the same expression in an environment of the same key. */
export function compileCached(expression: string, env: CelEnvironment): CompileResult {
  const key = `${env.key}\u0000${expression}`;
  let r = programs.get(key);
  if (r === undefined) {
    r = compile(expression, env);
    if (programs.size >= MAX_PROGRAMS) programs.delete(programs.keys().next().value!);
    programs.set(key, r);
  }
  return r;
}

/** How many programs are cached (for tests and metrics). */
export const cachedPrograms = (): number => programs.size;
