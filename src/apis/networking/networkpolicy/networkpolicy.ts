// NetworkPolicies (pkg/registry/networking/networkpolicy): selectors, peers and ports. Ports
// default to TCP; policyTypes default to Ingress (plus Egress when egress rules exist).
import { fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { formatLabelSelector, type LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import { isValidCIDRForLegacyField, parseCIDRSloppy, ipToBigInt } from '../../../apimachinery/validation/ip.ts';
import { nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from '../../../apimachinery/validation/object-meta.ts';
import { isValidPortName, isValidPortNum } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, bumpGenerationIfChanged, copyOf, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import { validateLabelSelector, type LabelSelectorValidationOptions } from '../../../apimachinery/validation/label-selector.ts';
import type { IPBlock, NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort, NetworkPolicySpec } from '../v1/types.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';
import { cidrWarnings } from '../../../apimachinery/validation/ip-warnings.ts';

type RO<T> = DeepReadonly<T>;
const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];
/** kube v1.36 enables StrictIPCIDRValidation by default: no leading zeros, no bits beyond the prefix. */
const STRICT_CIDR = true;

interface Options extends LabelSelectorValidationOptions { readonly allowCIDRs?: readonly string[] }

function validatePort(port: RO<NetworkPolicyPort>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (port.protocol !== undefined && !PROTOCOLS.includes(port.protocol)) errs.push(notSupported(p.child('protocol'), port.protocol, PROTOCOLS));
  if (port.port === undefined) {
    if (port.endPort !== undefined) errs.push(invalid(p.child('endPort'), port.endPort, 'may not be specified when `port` is not specified'));
  } else if (typeof port.port === 'number') {
    for (const m of isValidPortNum(port.port)) errs.push(invalid(p.child('port'), port.port, m));
    if (port.endPort !== undefined) {
      // kube reports the port, not the endPort, as the invalid value.
      if (port.endPort < port.port) errs.push(invalid(p.child('endPort'), port.port, 'must be greater than or equal to `port`'));
      for (const m of isValidPortNum(port.endPort)) errs.push(invalid(p.child('endPort'), port.endPort, m));
    }
  } else {
    if (port.endPort !== undefined) errs.push(invalid(p.child('endPort'), port.endPort, 'may not be specified when `port` is non-numeric'));
    for (const m of isValidPortName(port.port)) errs.push(invalid(p.child('port'), port.port, m));
  }
  return errs;
}

function validateIPBlock(b: RO<IPBlock>, p: FieldPath, opts: Options): FieldError[] {
  const cidr = b.cidr ?? '';
  if (cidr === '') return [required(p.child('cidr'))];
  const errs = isValidCIDRForLegacyField(p.child('cidr'), cidr, STRICT_CIDR, opts.allowCIDRs);
  const outer = parseCIDRSloppy(cidr);
  if (outer === undefined) return errs;
  (b.except ?? []).forEach((ex, i) => {
    const ep = p.child('except').index(i);
    errs.push(...isValidCIDRForLegacyField(ep, ex, STRICT_CIDR, opts.allowCIDRs));
    const inner = parseCIDRSloppy(ex);
    if (inner === undefined) return;
    // net.IPNet.Contains of the except's address, and a strictly longer prefix.
    const bits = outer.network.v4 ? 32 : 128;
    const shift = BigInt(bits - outer.prefixLength);
    const inside = inner.network.v4 === outer.network.v4 && (ipToBigInt(inner.network) >> shift) === (ipToBigInt(outer.network) >> shift);
    if (!inside || outer.prefixLength >= inner.prefixLength) errs.push(invalid(ep, ex, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

function validatePeer(peer: RO<NetworkPolicyPeer>, p: FieldPath, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  if (peer.podSelector !== undefined) { n++; errs.push(...validateLabelSelector(peer.podSelector, opts, p.child('podSelector'))); }
  if (peer.namespaceSelector !== undefined) { n++; errs.push(...validateLabelSelector(peer.namespaceSelector, opts, p.child('namespaceSelector'))); }
  if (peer.ipBlock !== undefined) { n++; errs.push(...validateIPBlock(peer.ipBlock, p.child('ipBlock'), opts)); }
  if (n === 0) errs.push(required(p, 'must specify a peer'));
  else if (n > 1 && peer.ipBlock !== undefined) errs.push(forbidden(p, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateNetworkPolicySpec(spec: RO<NetworkPolicySpec>, opts: Options): FieldError[] {
  const p = fieldPath('spec');
  const errs = validateLabelSelector(spec.podSelector ?? {}, opts, p.child('podSelector'));
  (spec.ingress ?? []).forEach((rule, i) => {
    const rp = p.child('ingress').index(i);
    (rule.ports ?? []).forEach((port, j) => errs.push(...validatePort(port, rp.child('ports').index(j))));
    (rule.from ?? []).forEach((peer, j) => errs.push(...validatePeer(peer, rp.child('from').index(j), opts)));
  });
  (spec.egress ?? []).forEach((rule, i) => {
    const rp = p.child('egress').index(i);
    (rule.ports ?? []).forEach((port, j) => errs.push(...validatePort(port, rp.child('ports').index(j))));
    (rule.to ?? []).forEach((peer, j) => errs.push(...validatePeer(peer, rp.child('to').index(j), opts)));
  });
  const types = spec.policyTypes ?? [];
  if (types.length > POLICY_TYPES.length) {
    errs.push(invalid(p.child('policyTypes'), types, 'may not specify more than two policyTypes'));
    return errs;
  }
  types.forEach((t, i) => { if (!POLICY_TYPES.includes(t)) errs.push(notSupported(p.child('policyTypes').index(i), t, POLICY_TYPES)); });
  return errs;
}

/** networkPolicyWarnings: every ipBlock CIDR and except kube will refuse one day or that is not canonical. */
function networkPolicyWarnings(np: RO<NetworkPolicy>): string[] {
  const p = fieldPath('spec');
  const block = (b: RO<IPBlock> | undefined, bp: FieldPath): string[] => (b === undefined ? [] :
    [...cidrWarnings(bp.child('cidr'), b.cidr ?? ''), ...(b.except ?? []).flatMap((ex, k) => cidrWarnings(bp.child('except').index(k), ex))]);
  return [
    ...(np.spec?.ingress ?? []).flatMap((r, i) => (r.from ?? []).flatMap((peer, j) => block(peer.ipBlock, p.child('ingress').index(i).child('from').index(j).child('ipBlock')))),
    ...(np.spec?.egress ?? []).flatMap((r, i) => (r.to ?? []).flatMap((peer, j) => block(peer.ipBlock, p.child('egress').index(i).child('to').index(j).child('ipBlock')))),
  ];
}

/** Update leniency: a stored pod selector with bad values, and CIDRs already in the old object. */
function updateOptions(old: RO<NetworkPolicy>): Options {
  const peers = [...(old.spec?.ingress ?? []).flatMap((r) => r.from ?? []), ...(old.spec?.egress ?? []).flatMap((r) => r.to ?? [])];
  return {
    allowInvalidLabelValueInSelector: validateLabelSelector(old.spec?.podSelector ?? {}, {}, fieldPath('x')).length > 0,
    allowCIDRs: peers.flatMap((peer) => (peer.ipBlock === undefined ? [] : [peer.ipBlock.cidr ?? '', ...(peer.ipBlock.except ?? [])])),
  };
}

/** SetDefaults_NetworkPolicyPort and SetDefaults_NetworkPolicy. */
function defaultNetworkPolicy(np: NetworkPolicy): void {
  const spec = np.spec ??= {};
  for (const rule of [...(spec.ingress ?? []), ...(spec.egress ?? [])]) for (const port of rule.ports ?? []) port.protocol ??= 'TCP';
  if ((spec.policyTypes ?? []).length === 0) {
    spec.policyTypes = (spec.egress ?? []).length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

export const networkPolicies = {
  group: 'networking.k8s.io', kind: 'NetworkPolicy', resource: 'networkpolicies', singular: 'networkpolicy', shortNames: ['netpol'],
  goZeroValues: (o) => { for (const [path, v] of [[['spec', 'podSelector'], {}]] as const) setZero(o, path, v); },
  namespaced: true,
  strategy: specStatusStrategy<NetworkPolicy>({
    prepareForCreate(_ctx, np) { np.metadata.generation = 1; },
    validate: (np) => [...validateObjectMeta(np.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }), ...validateNetworkPolicySpec(np.spec ?? {}, {})],
    prepareForUpdate(_ctx, np, old) { bumpGenerationIfChanged(np.metadata, np.spec, old.spec); },
    // ValidateNetworkPolicyUpdate checks the metadata update itself too (its causes come twice with the store's).
    revalidateOnUpdate: false,
    validateUpdate: (np, old) => [...validateObjectMetaUpdate(np.metadata, old.metadata), ...validateNetworkPolicySpec(np.spec ?? {}, updateOptions(old))],
    warningsOnCreate: (np) => networkPolicyWarnings(np),
    warningsOnUpdate: (np) => networkPolicyWarnings(np),
  }),
  defaults: defaultNetworkPolicy,
  table: [
    nameColumn<NetworkPolicy>(),
    { name: 'Pod-Selector', type: 'string',      cell: (np) => formatLabelSelector(copyOf<LabelSelector>(np.spec?.podSelector ?? {})) },
    ageColumn<NetworkPolicy>(),
  ],
} satisfies ResourceDefinition<NetworkPolicy>;
