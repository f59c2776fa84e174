// What the server serves, as the OpenAPI builders need it. Counterpart of the route list
// k8s.io/kube-openapi/pkg/builder reads (go-restful WebServices).
import type { DefinitionDocs } from '../../apimachinery/openapi/docs.ts';
import type { SchemaNode } from '../../apimachinery/openapi/types.ts';
import type { JsonObject, OpenAPIFormat } from './schema-json.ts';

// What the server serves, as the OpenAPI builders need it: the installer (or a test) lists its
// resources; the builders derive paths, operations and the schemas they use.

export interface ServedSubresource {
  /** "status", "scale", "binding", "eviction", "log", "exec", ... */
  readonly name: string;
  /** Kind of the subresource's object, in group/version (defaults: the parent's group/version). */
  readonly kind: string;
  readonly group?: string;
  readonly version?: string;
  /** get, update, patch, create; or connect (exec, attach, portforward, proxy). */
  readonly verbs: readonly string[];
  /** connect only: the HTTP methods served (default GET and POST). */
  readonly connectMethods?: readonly string[];
}

export interface ServedResource {
  readonly group: string;
  readonly version: string;
  /** Plural resource name, e.g. "configmaps". */
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** get, list, watch, create, update, patch, delete, deletecollection. */
  readonly verbs: readonly string[];
  readonly subresources?: readonly ServedSubresource[];
  /** The definition describing the kind; default: the built-in one for the GVK. */
  readonly definition?: string;
  /**
   * Definitions this resource brings that are not built in (a custom resource's schema and its
   * list), by name; `definition` and `listDefinition` may name them.
   */
  readonly schemas?: Readonly<Record<string, SchemaNode>>;
  /**
   * The JSON a document publishes for the definitions of `schemas`, when it is not their plain
   * rendering: a custom resource's whole schema (descriptions, value validations, CEL rules),
   * which kube publishes differently in v2 and v3. `docs` holds the built-in texts it reuses.
   */
  readonly publishedSchemas?: (format: OpenAPIFormat, docs: DefinitionDocs) => Readonly<Record<string, JsonObject>>;
  /**
   * Changes whenever what `publishedSchemas` returns may change (a CRD's uid and generation):
   * the cached v3 document of the resource's group version is rebuilt then, and only then.
   */
  readonly revision?: string;
  /** The definition of the list kind; default: definition + "List". */
  readonly listDefinition?: string;
  /** false: PATCH does not take strategic merge patches (custom resources). Default true. */
  readonly strategicMergePatch?: boolean;
  /**
   * Published as apiextensions-apiserver publishes custom resources: no watch paths, and no
   * discovery paths or "apis/<group>" document for its group.
   */
  readonly customResource?: boolean;
  /** DELETE answers with the object (pods, namespaces, ...) instead of a Status. */
  readonly deleteReturnsObject?: boolean;
}

export interface GroupVersionKey { readonly group: string; readonly version: string }

/** "api/v1" or "apis/apps/v1": the OpenAPI v3 path of a group version. */
export function groupVersionPath(gv: GroupVersionKey): string {
  return gv.group === '' ? `api/${gv.version}` : `apis/${gv.group}/${gv.version}`;
}
