// The admission contract (k8s.io/apiserver/pkg/admission): plugins see the operation, the
// object and its old version, and may mutate (admit) or only check (validate).
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { RequestContext } from '../apimachinery/request/context.ts';
import type { GroupVersionKind, GroupVersionResource } from '../apimachinery/schema/group-version.ts';

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

export type Plugin = Partial<MutationInterface & ValidationInterface> & { readonly name: string; handles(op: Operation): boolean };

/** Runs every mutating plugin, then (later, on the final object) every validating one, in order. */
export class AdmissionChain {
  constructor(private readonly plugins: readonly Plugin[]) {}

  async admit(ctx: RequestContext, attrs: Attributes): Promise<void> {
    for (const p of this.plugins) if (p.admit !== undefined && p.handles(attrs.operation)) await p.admit(ctx, attrs);
  }

  async validate(ctx: RequestContext, attrs: Attributes): Promise<void> {
    for (const p of this.plugins) if (p.validate !== undefined && p.handles(attrs.operation)) await p.validate(ctx, attrs);
  }

  get names(): readonly string[] { return this.plugins.map((p) => p.name); }
}
