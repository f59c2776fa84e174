// The declared types of admission CEL (ValidatingAdmissionPolicy, MutatingAdmissionPolicy, webhook
// matchConditions): `request` is a kubernetes.AdmissionRequest, `namespaceObject` a
// kubernetes.Namespace (a subset of its fields), `object`/`oldObject`/`params` are dyn unless typed
// from a schema, `authorizer` is the authz library's Authorizer.
// Go counterpart: k8s.io/apiserver/pkg/admission/plugin/cel/compile.go (BuildRequestType,
// BuildNamespaceType, the variable names).
import { MAX_UINT64 } from './cost-math.ts';
import { BoolType, DynType, IntType, listType, mapType, objectType, StringType, TimestampType, type DeclField, type DeclType, type ObjectDeclType } from './types.ts';

export const ObjectVarName = 'object';
export const OldObjectVarName = 'oldObject';
export const ParamsVarName = 'params';
export const RequestVarName = 'request';
export const NamespaceVarName = 'namespaceObject';
export const AuthorizerVarName = 'authorizer';
export const VariableVarName = 'variables';

const UNBOUNDED = MAX_UINT64;

function object(name: string, fields: readonly (readonly [string, DeclType, boolean])[]): ObjectDeclType {
  const m = new Map<string, DeclField>();
  for (const [n, type, required] of fields) m.set(n, { name: n, jsonName: n, type, required });
  return objectType(name, m);
}

const strings = (): DeclType => listType(StringType, UNBOUNDED);

/** kubernetes.AdmissionRequest, the type of `request`. */
export function admissionRequestType(): ObjectDeclType {
  const gvk = object('kubernetes.GroupVersionKind', [['group', StringType, true], ['version', StringType, true], ['kind', StringType, true]]);
  const gvr = object('kubernetes.GroupVersionResource', [['group', StringType, true], ['version', StringType, true], ['resource', StringType, true]]);
  const userInfo = object('kubernetes.UserInfo', [
    ['username', StringType, false], ['uid', StringType, false], ['groups', strings(), false],
    ['extra', mapType(StringType, strings(), UNBOUNDED), false],
  ]);
  return object('kubernetes.AdmissionRequest', [
    ['kind', gvk, true], ['resource', gvr, true], ['subResource', StringType, false], ['requestKind', gvk, true],
    ['requestResource', gvr, true], ['requestSubResource', StringType, false], ['name', StringType, true],
    ['namespace', StringType, false], ['operation', StringType, true], ['userInfo', userInfo, true],
    ['dryRun', BoolType, false], ['options', DynType, false],
  ]);
}

/** kubernetes.Namespace, the type of `namespaceObject` (metadata, spec.finalizers, status). */
export function namespaceType(): ObjectDeclType {
  const condition = object('kubernetes.NamespaceCondition', [
    ['status', StringType, true], ['type', StringType, true], ['lastTransitionTime', TimestampType, true],
    ['message', StringType, true], ['reason', StringType, true],
  ]);
  const metadata = object('kubernetes.NamespaceMetadata', [
    ['name', StringType, true], ['generateName', StringType, true], ['namespace', StringType, true],
    ['labels', mapType(StringType, StringType, UNBOUNDED), true], ['annotations', mapType(StringType, StringType, UNBOUNDED), true],
    ['UID', StringType, true], ['creationTimestamp', TimestampType, true], ['deletionGracePeriodSeconds', IntType, true],
    ['deletionTimestamp', TimestampType, true], ['generation', IntType, true], ['resourceVersion', StringType, true],
    ['finalizers', strings(), true],
  ]);
  return object('kubernetes.Namespace', [
    ['metadata', metadata, true],
    ['spec', object('kubernetes.NamespaceSpec', [['finalizers', strings(), true]]), true],
    ['status', object('kubernetes.NamespaceStatus', [['conditions', listType(condition, UNBOUNDED), true], ['phase', StringType, true]]), true],
  ]);
}
