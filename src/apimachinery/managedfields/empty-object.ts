// The "empty object" kube compares against when an object is created (runtime.ObjectCreater.New
// converted to unstructured). Go types hold some fields as non-pointer structs or non-omitempty
// slices, so they exist (as {} or null) even in the empty object; creating an object therefore
// does not "add" them, and their FieldsV1 entries carry no ".". kapi has no Go types, so the
// common cases are listed here by OpenAPI definition name.
import { definitionForGVK, getDefinitions, resolveSchema } from '../openapi/index.ts';
import type { SchemaNode } from '../openapi/index.ts';
import type { JsonObject } from '../patch/json-value.ts';

type Zero = 'struct' | 'null';

const ZERO_FIELDS: Readonly<Record<string, Readonly<Record<string, Zero>>>> = {
  'io.k8s.api.apps.v1.DeploymentSpec': { selector: 'null', template: 'struct', strategy: 'struct' },
  'io.k8s.api.apps.v1.StatefulSetSpec': { selector: 'null', template: 'struct', updateStrategy: 'struct' },
  'io.k8s.api.apps.v1.DaemonSetSpec': { selector: 'null', template: 'struct', updateStrategy: 'struct' },
  'io.k8s.api.apps.v1.ReplicaSetSpec': { selector: 'null', template: 'struct' },
  'io.k8s.api.batch.v1.JobSpec': { template: 'struct' },
  'io.k8s.api.batch.v1.CronJobSpec': { jobTemplate: 'struct' },
  'io.k8s.api.batch.v1.JobTemplateSpec': { metadata: 'struct', spec: 'struct' },
  'io.k8s.api.core.v1.PodTemplateSpec': { metadata: 'struct', spec: 'struct' },
  'io.k8s.api.core.v1.PodTemplate': { template: 'struct' },
  'io.k8s.api.core.v1.PodSpec': { containers: 'null' },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec': { names: 'struct', versions: 'null' },
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec': { resources: 'struct' },
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerSpec': { scaleTargetRef: 'struct' },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec': { scaleTargetRef: 'struct' },
  'io.k8s.api.storage.v1.VolumeAttachmentSpec': { source: 'struct' },
  'io.k8s.api.storage.v1.CSINodeSpec': { drivers: 'null' },
  'io.k8s.api.resource.v1.ResourceSliceSpec': { pool: 'struct' },
  'io.k8s.api.resource.v1beta1.ResourceSliceSpec': { pool: 'struct' },
  'io.k8s.api.resource.v1beta2.ResourceSliceSpec': { pool: 'struct' },
  'io.k8s.api.resource.v1.ResourceClaimTemplateSpec': { metadata: 'struct', spec: 'struct' },
  'io.k8s.api.resource.v1beta1.ResourceClaimTemplateSpec': { metadata: 'struct', spec: 'struct' },
  'io.k8s.api.resource.v1beta2.ResourceClaimTemplateSpec': { metadata: 'struct', spec: 'struct' },
};

// Top-level fields that every built-in kind holds by value.
const TOP_LEVEL = ['metadata', 'spec', 'status'];

function skeleton(name: string, depth: number): JsonObject {
  const out: JsonObject = {};
  const fields = ZERO_FIELDS[name];
  if (fields === undefined || depth > 8) return out;
  const def = getDefinitions()[name];
  for (const [field, zero] of Object.entries(fields)) {
    if (zero === 'null') { out[field] = null; continue; }
    const ref = def?.properties?.[field]?.$ref;
    out[field] = ref === undefined ? {} : skeleton(ref, depth + 1);
  }
  return out;
}

/** The empty object of a kind: apiVersion, kind, and the fields Go's zero value has. */
export function emptyObject(apiVersion: string, kind: string, schema: SchemaNode | undefined): JsonObject {
  const out: JsonObject = { apiVersion, kind };
  const s = resolveSchema(schema, getDefinitions());
  if (s === undefined) return out;
  for (const field of TOP_LEVEL) {
    const ref = s.properties?.[field]?.$ref;
    if (ref !== undefined) out[field] = skeleton(ref, 0);
  }
  // Kinds whose own fields are zero-valued structs or slices (PodTemplate's template, Role's rules).
  const slash = apiVersion.indexOf('/');
  const name = definitionForGVK({ group: slash < 0 ? '' : apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind });
  if (name !== undefined && getDefinitions()[name] === s) Object.assign(out, skeleton(name, 0));
  return out;
}
