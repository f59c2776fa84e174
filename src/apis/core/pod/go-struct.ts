// Some of kube's messages print the internal Go struct of the bad value as JSON with Go's field
// names (`{"Type":"RuntimeDefault","LocalhostProfile":"p"}`): nil pointers and slices as null,
// unset strings as "". These shapes rebuild that text from the v1 JSON.
// Counterpart of encoding/json printing the internal types of pkg/apis/core.
import { GoSyntax } from '../../../apimachinery/errors/field-errors.ts';
import { obj, type Obj } from './spec-access.ts';

/**
 * A field: its Go name, its JSON name, and what it holds ('ptr' and 'slice' print null when unset;
 * `{ list }` is a slice of structs).
 */
type Field = readonly [go: string, json: string, kind: 'ptr' | 'str' | 'slice' | Shape | { readonly list: Shape }];
type Shape = readonly Field[];

const profile: Shape = [['Type', 'type', 'str'], ['LocalhostProfile', 'localhostProfile', 'ptr']];
export const SECCOMP_PROFILE: Shape = profile;
export const SECURITY_CONTEXT: Shape = [
  ['Capabilities', 'capabilities', [['Add', 'add', 'slice'], ['Drop', 'drop', 'slice']]],
  ['Privileged', 'privileged', 'ptr'],
  ['SELinuxOptions', 'seLinuxOptions', [['User', 'user', 'str'], ['Role', 'role', 'str'], ['Type', 'type', 'str'], ['Level', 'level', 'str']]],
  ['WindowsOptions', 'windowsOptions', [['GMSACredentialSpecName', 'gmsaCredentialSpecName', 'ptr'], ['GMSACredentialSpec', 'gmsaCredentialSpec', 'ptr'],
    ['RunAsUserName', 'runAsUserName', 'ptr'], ['HostProcess', 'hostProcess', 'ptr']]],
  ['RunAsUser', 'runAsUser', 'ptr'], ['RunAsGroup', 'runAsGroup', 'ptr'], ['RunAsNonRoot', 'runAsNonRoot', 'ptr'],
  ['ReadOnlyRootFilesystem', 'readOnlyRootFilesystem', 'ptr'], ['AllowPrivilegeEscalation', 'allowPrivilegeEscalation', 'ptr'],
  ['ProcMount', 'procMount', 'ptr'], ['SeccompProfile', 'seccompProfile', profile], ['AppArmorProfile', 'appArmorProfile', profile],
];
export const POD_RESOURCE_CLAIM: Shape = [['Name', 'name', 'str'], ['ResourceClaimName', 'resourceClaimName', 'ptr'],
  ['ResourceClaimTemplateName', 'resourceClaimTemplateName', 'ptr']];

function build(o: Obj, shape: Shape): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [go, json, kind] of shape) {
    const v = o[json];
    if (kind === 'str') out[go] = typeof v === 'string' ? v : '';
    else if (kind === 'ptr' || kind === 'slice') out[go] = v === undefined ? null : v;
    else if ('list' in kind) out[go] = Array.isArray(v) ? v.map((e) => build(obj(e) ?? {}, kind.list)) : null;
    else {
      const nested = obj(v);
      out[go] = nested === undefined ? null : build(nested, kind);
    }
  }
  return out;
}

const requirement: Shape = [['Key', 'key', 'str'], ['Operator', 'operator', 'str'], ['Values', 'values', 'slice']];
export const NODE_SELECTOR_TERM: Shape = [['MatchExpressions', 'matchExpressions', { list: requirement }], ['MatchFields', 'matchFields', { list: requirement }]];

/** A slice of structs as kube prints it. */
export const goStructs = (items: readonly Obj[], shape: Shape): GoSyntax => new GoSyntax(JSON.stringify(items.map((o) => build(o, shape))));

/** The bad value of a struct as kube prints it. */
export const goStruct = (o: Obj, shape: Shape): GoSyntax => new GoSyntax(JSON.stringify(build(o, shape)));
