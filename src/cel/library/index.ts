// kube's CEL libraries of v1.36, registered on the base environment. All of these are in kube's
// v1.36 base environment (environment/base.go: URLs, Regex, Lists at 1.0; Authz 1.27; optional
// types and Quantity 1.28; strings v2 and sets 1.29; IP and CIDR 1.30; Format 1.31; two-variable
// comprehensions 1.32; semver 1.33; ext lists v3 1.34), so no version gating is needed for an
// emulated version of 1.36. Not in kube's environment, so not here: cel-go's math, encoders
// (base64), bindings (cel.bind) and strings v3+ (`reverse`).
// Go counterpart: k8s.io/apiserver/pkg/cel/environment/base.go.
import type { Environment } from '@marcbachmann/cel-js';
import { registerAuthz } from './authz.ts';
import { registerComprehensions } from './comprehensions.ts';
import { registerFormat } from './format.ts';
import { registerLists } from './lists.ts';
import { registerNet } from './net.ts';
import { registerOptional } from './optional.ts';
import { registerQuantity } from './quantity.ts';
import { registerRegex } from './regex.ts';
import { registerSemver } from './semver.ts';
import { registerSets } from './sets.ts';
import { registerStrings } from './strings.ts';
import { registerURLs } from './url.ts';

/** Registers every library kube's v1.36 base environment enables. */
export function registerLibraries(env: Environment): void {
  registerURLs(env);
  registerRegex(env);
  registerLists(env);
  registerAuthz(env);
  registerOptional(env);
  registerQuantity(env);
  registerStrings(env);
  registerSets(env);
  registerNet(env);
  registerFormat(env);
  registerComprehensions(env);
  registerSemver(env);
  registerTypeNames(env);
}

/**
 * kube's library types as identifiers (`type(ip('1.2.3.4')) == net.IP`): constants `net` and
 * `kubernetes` whose fields are the type values.
 */
function registerTypeNames(env: Environment): void {
  const namespaces: Readonly<Record<string, Readonly<Record<string, string>>>> = {
    net: { IP: "ip('0.0.0.0')", CIDR: "cidr('0.0.0.0/0')" },
    kubernetes: { Quantity: "quantity('0')", URL: "url('/')", Semver: "semver('0.0.0')", NamedFormat: 'format.uuid()' },
  };
  for (const [ns, types] of Object.entries(namespaces)) {
    const ctor = class {};
    const instance = new ctor() as Record<string, unknown>;
    const fields: Record<string, string> = {};
    for (const [name, sample] of Object.entries(types)) {
      instance[name] = env.evaluate(`type(${sample})`);
      fields[name] = 'type';
    }
    env.registerType(`kubernetes.TypeNamespace.${ns}`, { ctor, fields });
    env.registerConstant(ns, `kubernetes.TypeNamespace.${ns}`, instance);
  }
}
