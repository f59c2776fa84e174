// kube-controller-manager's validatingadmissionpolicy-status controller, run in-process: each new
// generation of a ValidatingAdmissionPolicy is type checked against the schemas of the kinds it
// matches, and the warnings are written to status.typeChecking with status.observedGeneration,
// as kube's server-side apply of the status (field manager `validatingadmissionpolicy-status`,
// forced), so managedFields record it as kube's do.
// Kinds resolve through discovery; schemas are the built-in OpenAPI definitions ($refs inlined)
// or a custom resource's published schema.
// Counterpart of pkg/controller/validatingadmissionpolicystatus/controller.go and the
// DefinitionsSchemaResolver/ClientDiscoveryResolver of k8s.io/apiserver/pkg/cel/openapi/resolver.
import { apply } from '../apimachinery/managedfields/index.ts';
import type { KubeObject, Unstructured } from '../apimachinery/meta/types.ts';
import { definitionForGVK, getDefinitions, schemaForGVK } from '../apimachinery/openapi/definitions.ts';
import type { Definitions, SchemaNode } from '../apimachinery/openapi/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { GroupVersionKind } from '../apimachinery/schema/group-version.ts';
import { typeCheck, type TypeCheckDeps } from '../admission/policy/validating/typechecking.ts';
import type { CelSchema } from '../cel/index.ts';
import { Controller, type ControllerOptions } from '../client/controller.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import type { DiscoveryGroup } from '../endpoints/discovery/types.ts';
import type { ServedResource } from '../endpoints/openapi/index.ts';
import type { ValidatingAdmissionPolicy } from '../generated/types/admissionregistrationv1.gen.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

const NAME = 'validatingadmissionpolicies.admissionregistration.k8s.io';
/** The controller's ApplyStatus field manager (pkg/controller/validatingadmissionpolicystatus ControllerName). */
export const STATUS_FIELD_MANAGER = 'validatingadmissionpolicy-status';
const API_VERSION = 'admissionregistration.k8s.io/v1';
const KIND = 'ValidatingAdmissionPolicy';

/** A schema with its references inlined; a definition already being inlined above becomes an untyped object (recursion). */
export function inlineSchema(node: SchemaNode | undefined, defs: Definitions, seen: readonly string[] = []): CelSchema | undefined {
  if (node === undefined) return undefined;
  if (node.$ref !== undefined) {
    if (seen.includes(node.$ref)) return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    return inlineSchema(defs[node.$ref], defs, [...seen, node.$ref]);
  }
  const intOrString = node.format === 'int-or-string' || node['x-kubernetes-int-or-string'] === true;
  const props = node.properties === undefined ? undefined
    : Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, inlineSchema(v, defs, seen) ?? {}]));
  const out: Record<string, unknown> = {
    ...(intOrString ? { 'x-kubernetes-int-or-string': true } : { type: node.type, format: node.format }),
    properties: props, items: inlineSchema(node.items, defs, seen),
    additionalProperties: typeof node.additionalProperties === 'object' ? inlineSchema(node.additionalProperties, defs, seen) : node.additionalProperties,
    required: node.required, enum: node.enum,
    'x-kubernetes-preserve-unknown-fields': node['x-kubernetes-preserve-unknown-fields'],
    'x-kubernetes-embedded-resource': node['x-kubernetes-embedded-resource'],
    'x-kubernetes-list-type': node['x-kubernetes-list-type'], 'x-kubernetes-list-map-keys': node['x-kubernetes-list-map-keys'],
  };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out as CelSchema;
}

/** KindsFor through discovery, and schemas from the built-in definitions or the custom resources' own. */
export function typeCheckDeps(discovery: () => readonly DiscoveryGroup[], customResources: () => readonly ServedResource[]): TypeCheckDeps {
  return {
    kindsFor(gvr) {
      const out: GroupVersionKind[] = [];
      for (const g of discovery()) {
        if (g.name !== gvr.group) continue;
        for (const v of g.versions) {
          if (v.version !== gvr.version) continue;
          for (const r of v.resources) if (r.name === gvr.resource) out.push({ group: gvr.group, version: gvr.version, kind: r.kind });
        }
      }
      return out;
    },
    schemaFor(gvk) {
      const cr = customResources().find((r) => r.group === gvk.group && r.version === gvk.version && r.kind === gvk.kind);
      if (cr !== undefined) {
        const defs = { ...getDefinitions(), ...(cr.schemas ?? {}) };
        const name = cr.definition ?? '';
        return inlineSchema(defs[name], defs, [name]);
      }
      const name = definitionForGVK(gvk);
      if (name === undefined) return undefined;
      const defs = getDefinitions();
      return inlineSchema(defs[name], defs, [name]);
    },
  };
}

export class ValidatingAdmissionPolicyStatusController extends Controller {
  private readonly policies: SharedInformer;

  constructor(private readonly store: ResourceStore<KubeObject>, private readonly deps: TypeCheckDeps, opts: ControllerOptions = {}) {
    super('validatingadmissionpolicy-status', opts);
    const enqueue = (o: KubeObject): void => { this.queue.add(o.metadata.name ?? ''); };
    this.policies = this.follow(store, NAME, { onAdd: enqueue, onUpdate: (_old, o) => enqueue(o) });
  }

  protected async sync(name: string): Promise<void> {
    const policy = this.policies.get('', name) as ValidatingAdmissionPolicy | undefined;
    if (policy === undefined) return;
    const generation = policy.metadata?.generation ?? 0;
    if (generation <= (policy.status?.observedGeneration ?? 0)) return;
    const warnings = typeCheck(policy, this.deps);
    // The apply configuration kube sends: an empty warning list is left out, typeChecking stays.
    const patch = { apiVersion: API_VERSION, kind: KIND, metadata: { name },
      status: { observedGeneration: generation, typeChecking: warnings.length > 0 ? { expressionWarnings: warnings } : {} } };
    await this.store.updateUnchecked(systemContext(''), name, (cur) => {
      if ((cur.metadata.generation ?? 0) !== generation) return cur; // a newer generation is queued
      return applyStatus(cur, patch, new Date());
    }, { dryRun: false });
  }
}

/** ApplyStatus with Force: the live policy with `patch` merged and the manager's Apply entry for the status subresource. */
export function applyStatus(live: KubeObject, patch: Unstructured, time: Date): KubeObject {
  return apply({
    apiVersion: API_VERSION, kind: KIND, schema: schemaForGVK({ group: 'admissionregistration.k8s.io', version: 'v1', kind: KIND }),
    subresource: 'status', typed: true, live, patch, manager: STATUS_FIELD_MANAGER, force: true, time,
  }).object;
}
