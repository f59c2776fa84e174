// Nodes (pkg/registry/core/node): cluster-scoped; status may be set on create (kubelets
// register with it) but only changes through /status afterwards.
import { fieldPath, forbidden, invalid, notSupported, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { isValidCIDRForLegacyField } from '../../../apimachinery/validation/ip.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isQualifiedName, isValidLabelValue } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition, Strategy } from '../../../registry/rest/strategy.ts';
import { ageColumn, copyOf, nameColumn, setOptional } from '../../../registry/rest/kit.ts';
import type { Node } from '../v1/types.ts';
import { validateNodeAddresses, validateNodeResources } from './resources.ts';

type RO<T> = DeepReadonly<T>;
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

function validateNodeSpec(node: RO<Node>): FieldError[] {
  const errs: FieldError[] = [];
  const spec = node.spec ?? {};
  (spec.podCIDRs ?? []).forEach((c, i) => errs.push(...isValidCIDRForLegacyField(fieldPath('spec', 'podCIDRs').index(i), c, false)));
  if ((spec.podCIDRs ?? []).length > 2) errs.push(invalid(fieldPath('spec', 'podCIDRs'), spec.podCIDRs, 'may specify no more than one CIDR for each IP family'));
  const seen = new Set<string>();
  (spec.taints ?? []).forEach((t, i) => {
    const p = fieldPath('spec', 'taints').index(i);
    errs.push(...isQualifiedName(t.key ?? '').map((m) => invalid(p.child('key'), t.key, m)));
    if ((t.value ?? '') !== '') errs.push(...isValidLabelValue(t.value ?? '').map((m) => invalid(p.child('value'), t.value, m)));
    if ((t.effect ?? '') === '') errs.push(required(p.child('effect')));
    else if (!TAINT_EFFECTS.includes(t.effect)) errs.push(notSupported(p.child('effect'), t.effect, TAINT_EFFECTS));
    const k = `${t.key}:${t.effect}`;
    if (seen.has(k)) errs.push(invalid(p, t, 'taints must be unique by key and effect pair'));
    seen.add(k);
  });
  return errs;
}

export function validateNode(node: RO<Node>): FieldError[] {
  return [...validateObjectMeta(node.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain }), ...validateNodeResources(node), ...validateNodeSpec(node)];
}

export function validateNodeUpdate(node: RO<Node>, old: RO<Node>): FieldError[] {
  const errs = [...validateNodeResources(node), ...validateNodeAddresses(node), ...validateNodeSpec(node)];
  const oldCIDRs = old.spec?.podCIDRs ?? [];
  if (oldCIDRs.length > 0 && JSON.stringify(node.spec?.podCIDRs ?? []) !== JSON.stringify(oldCIDRs)) {
    errs.push(forbidden(fieldPath('spec', 'podCIDRs'), 'node updates may not change podCIDR except from "" to valid'));
  }
  const oldProvider = old.spec?.providerID ?? '';
  if (oldProvider !== '' && (node.spec?.providerID ?? '') !== oldProvider) {
    errs.push(forbidden(fieldPath('spec', 'providerID'), 'node updates may not change providerID except from "" to valid'));
  }
  return errs;
}

/** SetDefaults_NodeStatus: allocatable defaults to capacity. */
export function defaultNode(node: Node): void {
  if (node.status?.capacity !== undefined && node.status.allocatable === undefined) node.status.allocatable = { ...node.status.capacity };
}

function nodeStatus(node: RO<Node>): string {
  const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const status = ready === undefined ? ['Unknown'] : [ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (node.spec?.unschedulable === true) status.push('SchedulingDisabled');
  return status.join(',');
}

function nodeRoles(node: RO<Node>): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length) roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

const address = (node: RO<Node>, type: string): string => (node.status?.addresses ?? []).find((a) => a.type === type)?.address ?? '<none>';
const orUnknown = (s: string | undefined): string => (s === undefined || s === '' ? '<unknown>' : s);

/** The nodeInfo strings (NodeSystemInfo): none is omitempty. */
const NODE_INFO_FIELDS = ['machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion', 'kubeletVersion',
  'kubeProxyVersion', 'operatingSystem', 'architecture'] as const;

/**
 * Node as Go writes it: spec and status are structs, and so are status.daemonEndpoints (with
 * kubeletEndpoint.Port, no omitempty) and status.nodeInfo (ten strings, no omitempty).
 */
function goNode(node: Node): void {
  node.spec ??= {};
  node.status ??= {};
  const st = node.status;
  st.daemonEndpoints ??= {};
  st.daemonEndpoints.kubeletEndpoint ??= { Port: 0 };
  st.nodeInfo ??= {};
  for (const f of NODE_INFO_FIELDS) st.nodeInfo[f] ??= '';
}

export const nodeStrategy: Strategy<Node> = {
  prepareForCreate() {},
  validate: (_ctx, node) => validateNode(node),
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForUpdate(_ctx, node, old) {
    setOptional(node, 'status', old.status === undefined ? undefined : copyOf<Node['status']>(old.status));
  },
  validateUpdate: (_ctx, node, old) => validateNodeUpdate(node, old),
  canonicalize: goNode,
};

export const nodeStatusStrategy: Strategy<Node> = {
  ...nodeStrategy,
  prepareForUpdate(_ctx, node, old) {
    setOptional(node, 'spec', old.spec === undefined ? undefined : copyOf<Node['spec']>(old.spec));
  },
  validateUpdate: (_ctx, node, old) => validateNodeUpdate(node, old),
};

export const nodes = {
  group: '', kind: 'Node', resource: 'nodes', singular: 'node', shortNames: ['no'], namespaced: false,
  strategy: nodeStrategy,
  statusStrategy: nodeStatusStrategy,
  defaults: defaultNode,
  selectableFields: (node) => ({ 'metadata.name': node.metadata.name ?? '', 'spec.unschedulable': String(node.spec?.unschedulable === true) }),
  table: [
    nameColumn<Node>(),
    { name: 'Status', type: 'string', cell: (n) => nodeStatus(n) },
    { name: 'Roles', type: 'string', cell: (n) => nodeRoles(n) },
    ageColumn<Node>(),
    { name: 'Version', type: 'string', cell: (n) => n.status?.nodeInfo?.kubeletVersion ?? '' },
    { name: 'Internal-IP', type: 'string', priority: 1, cell: (n) => address(n, 'InternalIP') },
    { name: 'External-IP', type: 'string', priority: 1, cell: (n) => address(n, 'ExternalIP') },
    { name: 'OS-Image', type: 'string', priority: 1, cell: (n) => orUnknown(n.status?.nodeInfo?.osImage) },
    { name: 'Kernel-Version', type: 'string', priority: 1, cell: (n) => orUnknown(n.status?.nodeInfo?.kernelVersion) },
    { name: 'Container-Runtime', type: 'string', priority: 1, cell: (n) => orUnknown(n.status?.nodeInfo?.containerRuntimeVersion) },
  ],
} satisfies ResourceDefinition<Node>;
