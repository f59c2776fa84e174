// The admission contract (k8s.io/apiserver/pkg/admission): plugins see the operation, the
// object and its old version, and may mutate (admit) or only check (validate).
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { SchemaNode } from '../apimachinery/openapi/index.ts';
import type { RequestContext, UserInfo } from '../apimachinery/request/context.ts';
import type { GroupVersion, GroupVersionKind, GroupVersionResource } from '../apimachinery/schema/group-version.ts';
import { observeAdmissionController, observeAdmissionStep, type StepType } from './metrics.ts';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface Attributes {
  readonly operation: Operation;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  readonly name: string;
  readonly namespace: string;
  /** The object being written (mutable for mutating plugins); undefined for DELETE. */
  readonly object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
  readonly dryRun: boolean;
  /** The user making the request (admission.Attributes.GetUserInfo). */
  readonly userInfo?: UserInfo | undefined;
  /**
   * The operation's options as kube builds them (meta.k8s.io/v1 CreateOptions, UpdateOptions,
   * DeleteOptions; undefined for CONNECT), sent to webhooks as request.options.
   */
  readonly options?: Readonly<Record<string, unknown>> | undefined;
  /** The request scope's conversion and resource mapping (kube's ObjectInterfaces). */
  readonly interfaces?: ObjectInterfaces | undefined;
}

/**
 * What the admission of one request may ask of its endpoint (admission.ObjectInterfaces): the
 * object in another version of its kind, and the versions a resource is served in.
 */
export interface ObjectInterfaces {
  /** The object in `gv`; throws a StatusError when the kind has no such version. */
  convert(obj: KubeObject, gv: GroupVersion): KubeObject;
  /**
   * The object in `gv` when conversion may call out: a custom resource whose CRD converts by
   * webhook. Absent where `convert` is complete.
   */
  convertAsync?(obj: KubeObject, gv: GroupVersion): Promise<KubeObject>;
  /**
   * Decodes a JSON value as an object of `gvk` (non-strict, as kube's json serializer), with that
   * version's defaults; throws a StatusError when it does not fit the type.
   */
  decode(value: unknown, gvk: GroupVersionKind): KubeObject;
  /**
   * Applies decoded RFC 6902 operations to a copy of `doc` with evanphx/json-patch's semantics,
   * the engine kube applies webhook patches with; throws an Error with its message.
   */
  jsonPatch(doc: Readonly<Record<string, unknown>>, ops: readonly unknown[]): unknown;
  /**
   * The object closer to how kube's JSON encoder prints its Go struct, which is what webhooks
   * receive (a round trip through the kind's protobuf form: nil fields Go prints as null). Empty
   * structs Go would print (`status: {}`) are not added. Custom resources as they are.
   */
  goJSON(obj: KubeObject): KubeObject;
  /** EquivalentResourceMapper.EquivalentResourcesFor: the same resource in every version and group it is served in. */
  equivalentResources(resource: GroupVersionResource, subresource: string): readonly GroupVersionResource[];
  /** EquivalentResourceMapper.KindFor. */
  kindFor(resource: GroupVersionResource, subresource: string): GroupVersionKind | undefined;
  /**
   * The kind's OpenAPI schema as server-side apply reads it (kube's TypeConverter), for
   * MutatingAdmissionPolicy's apply configurations; undefined when it has none (fields deduced).
   */
  schemaFor?(gvk: GroupVersionKind): SchemaNode | undefined;
}

/**
 * admission.ReinvocationContext: a mutating plugin that changed the object asks for a second
 * round; plugins keep their own state across rounds in `values`.
 */
export interface ReinvocationContext {
  isReinvoke: boolean;
  shouldReinvoke: boolean;
  readonly values: Map<string, unknown>;
}

/** Made only for requests a plugin asks about: a request nothing reinvokes allocates none. */
const reinvocations = new WeakMap<Attributes, ReinvocationContext>();

/** The reinvocation context of an admission (both rounds share the attributes). */
export function reinvocationContext(attrs: Attributes): ReinvocationContext {
  let r = reinvocations.get(attrs);
  if (r === undefined) reinvocations.set(attrs, r = { isReinvoke: false, shouldReinvoke: false, values: new Map() });
  return r;
}

export interface MutationInterface {
  readonly name: string;
  handles(op: Operation): boolean;
  /** May change attrs.object; rejects with a StatusError to refuse the request. */
  admit(ctx: RequestContext, attrs: Attributes): Promise<void>;
}

export interface ValidationInterface {
  readonly name: string;
  handles(op: Operation): boolean;
  /** Rejects with a StatusError to refuse the request; must not change the object. */
  validate(ctx: RequestContext, attrs: Attributes): Promise<void>;
}

export type Plugin = Partial<MutationInterface & ValidationInterface> & {
  readonly name: string;
  handles(op: Operation): boolean;
  /**
   * The resources the plugin acts on, as `group/resource` keys (`/pods` for the core group);
   * absent: every resource. The chain skips the plugin for the others without calling it, so
   * the many pod-only plugins cost nothing on other requests.
   */
  readonly resources?: ReadonlySet<string>;
};

/** A plugin's `resources` set: `group/resource` keys. */
export function onResources(...keys: readonly string[]): ReadonlySet<string> {
  return new Set(keys);
}

const resourceKey = (a: Attributes): string => `${a.resource.group}/${a.resource.resource}`;

function wants(p: Plugin, op: Operation, key: string): boolean {
  return (p.resources === undefined || p.resources.has(key)) && p.handles(op);
}

/** A chain step, in apiserver_admission_step_admission_duration_seconds. */
async function timedStep(type: StepType, op: Operation, run: () => Promise<void>): Promise<void> {
  const start = process.hrtime.bigint();
  try {
    await run();
  } catch (err) {
    observeAdmissionStep(type, op, true, start);
    throw err;
  }
  observeAdmissionStep(type, op, false, start);
}

/** One plugin's call, in apiserver_admission_controller_admission_duration_seconds. */
async function timedPlugin(p: Plugin, type: StepType, ctx: RequestContext, attrs: Attributes): Promise<void> {
  const start = process.hrtime.bigint();
  try {
    await (type === 'admit' ? p.admit?.(ctx, attrs) : p.validate?.(ctx, attrs));
  } catch (err) {
    observeAdmissionController(p.name, type, attrs.operation, true, start);
    throw err;
  }
  observeAdmissionController(p.name, type, attrs.operation, false, start);
}

/** Runs every mutating plugin, then (later, on the final object) every validating one, in order. */
export class AdmissionChain {
  constructor(private readonly plugins: readonly Plugin[]) {}

  /**
   * kube's reinvoker: when a plugin asked for it (a webhook changed the object), the whole
   * mutating chain runs once more, with the context saying so.
   */
  async admit(ctx: RequestContext, attrs: Attributes): Promise<void> {
    await timedStep('admit', attrs.operation, async () => {
      const key = resourceKey(attrs);
      for (const p of this.plugins) if (p.admit !== undefined && wants(p, attrs.operation, key)) await timedPlugin(p, 'admit', ctx, attrs);
      const r = reinvocations.get(attrs);
      if (r === undefined || !r.shouldReinvoke) return;
      r.isReinvoke = true;
      for (const p of this.plugins) if (p.admit !== undefined && wants(p, attrs.operation, key)) await timedPlugin(p, 'admit', ctx, attrs);
    });
  }

  async validate(ctx: RequestContext, attrs: Attributes): Promise<void> {
    await timedStep('validate', attrs.operation, async () => {
      const key = resourceKey(attrs);
      for (const p of this.plugins) if (p.validate !== undefined && wants(p, attrs.operation, key)) await timedPlugin(p, 'validate', ctx, attrs);
    });
  }

  /** admission.Interface.Handles of the chain: whether any plugin wants `op` now (a cheap check before building anything). */
  handles(op: Operation): boolean {
    return this.plugins.some((p) => p.handles(op));
  }

  /** Whether any mutating plugin wants `op` now: no admit round (and no await) otherwise. */
  mutates(op: Operation): boolean {
    return this.plugins.some((p) => p.admit !== undefined && p.handles(op));
  }

  get names(): readonly string[] { return this.plugins.map((p) => p.name); }
}
