// Pod spec validation: the checks users meet daily (pkg/apis/core/validation: ValidatePodSpec,
// validateContainers, ValidateVolumes, validateContainerPorts, ValidateEnv, ...). Shared with
// pod templates (and later workloads) through validatePodSpec.
import {
  duplicate, fieldPath, forbidden, invalid, notFound, notSupported, required, type FieldError, type FieldPath,
} from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateLabels, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import {
  isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isRelaxedEnvVarName, isValidPortName, isValidPortNum, inclusiveRangeError,
} from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { parseQuantity } from '../v1/quantity.ts';
import type { Container, Pod, PodSpec, Probe, ResourceList, Volume } from '../v1/types.ts';
import { volumeSources } from './defaults.ts';

type RO<T> = DeepReadonly<T>;

const dns1123Label = (value: string, p: FieldPath): FieldError[] => isDNS1123Label(value).map((m) => invalid(p, value, m));
const dns1123Subdomain = (value: string, p: FieldPath): FieldError[] => isDNS1123Subdomain(value).map((m) => invalid(p, value, m));

function validateVolumes(volumes: RO<Volume[]> | undefined, p: FieldPath): { names: Set<string>; errs: FieldError[] } {
  const names = new Set<string>();
  const errs: FieldError[] = [];
  (volumes ?? []).forEach((v, i) => {
    const ip = p.index(i);
    const np = ip.child('name');
    if ((v.name ?? '') === '') errs.push(required(np));
    else errs.push(...dns1123Label(v.name, np));
    if (names.has(v.name)) errs.push(duplicate(np, v.name));
    else if ((v.name ?? '') !== '') names.add(v.name);
    const sources = volumeSources(v);
    if (sources.length === 0) errs.push(required(ip, 'must specify a volume type'));
    for (const s of sources.slice(1)) errs.push(forbidden(ip.child(s), 'may not specify more than 1 volume type'));
    if (v.configMap !== undefined && (v.configMap.name ?? '') === '') errs.push(required(ip.child('configMap', 'name')));
    if (v.secret !== undefined && (v.secret.secretName ?? '') === '') errs.push(required(ip.child('secret', 'secretName')));
    if (v.hostPath !== undefined && (v.hostPath.path ?? '') === '') errs.push(required(ip.child('hostPath', 'path')));
    if (v.persistentVolumeClaim !== undefined && (v.persistentVolumeClaim.claimName ?? '') === '') {
      errs.push(required(ip.child('persistentVolumeClaim', 'claimName')));
    }
    for (const [src, mode] of [['configMap', v.configMap?.defaultMode], ['secret', v.secret?.defaultMode],
      ['projected', v.projected?.defaultMode], ['downwardAPI', v.downwardAPI?.defaultMode]] as const) {
      if (mode !== undefined && (mode < 0 || mode > 0o777)) {
        errs.push(invalid(ip.child(src, 'defaultMode'), mode, 'must be a number between 0 and 0777 (octal), both inclusive'));
      }
    }
  });
  return { names, errs };
}

function validatePorts(c: RO<Container>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (c.ports ?? []).forEach((port, i) => {
    const ip = p.index(i);
    const name = port.name ?? '';
    if (name !== '') {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) for (const m of msgs) errs.push(invalid(ip.child('name'), name, m));
      else if (names.has(name)) errs.push(duplicate(ip.child('name'), name));
      else names.add(name);
    }
    if ((port.containerPort ?? 0) === 0) errs.push(required(ip.child('containerPort')));
    else for (const m of isValidPortNum(port.containerPort)) errs.push(invalid(ip.child('containerPort'), port.containerPort, m));
    if ((port.hostPort ?? 0) !== 0) for (const m of isValidPortNum(port.hostPort ?? 0)) errs.push(invalid(ip.child('hostPort'), port.hostPort, m));
    const proto = port.protocol ?? '';
    if (proto === '') errs.push(required(ip.child('protocol')));
    else if (!['SCTP', 'TCP', 'UDP'].includes(proto)) errs.push(notSupported(ip.child('protocol'), proto, ['SCTP', 'TCP', 'UDP']));
  });
  return errs;
}

function validateEnv(c: RO<Container>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (c.env ?? []).forEach((e, i) => {
    const np = p.index(i).child('name');
    if ((e.name ?? '') === '') errs.push(required(np));
    else for (const m of isRelaxedEnvVarName(e.name)) errs.push(invalid(np, e.name, m));
  });
  return errs;
}

function validateVolumeMounts(c: RO<Container>, volumes: ReadonlySet<string>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  (c.volumeMounts ?? []).forEach((m, i) => {
    const ip = p.index(i);
    if ((m.name ?? '') === '') errs.push(required(ip.child('name')));
    if (!volumes.has(m.name ?? '')) errs.push(notFound(ip.child('name'), m.name ?? ''));
    if ((m.mountPath ?? '') === '') errs.push(required(ip.child('mountPath')));
    if (paths.has(m.mountPath)) errs.push(invalid(ip.child('mountPath'), m.mountPath, 'must be unique'));
    paths.add(m.mountPath);
  });
  return errs;
}

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

function validateResourceList(list: RO<ResourceList> | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, q] of Object.entries(list ?? {})) {
    const kp = p.key(name);
    const qualified = isQualifiedName(name);
    if (qualified.length > 0) for (const m of qualified) errs.push(invalid(kp, name, m));
    else if (!name.includes('/') && !STANDARD_CONTAINER_RESOURCES.has(name) && !name.startsWith('hugepages-') && !name.startsWith('requests.')) {
      errs.push(invalid(kp, name, 'must be a standard resource for containers'));
    }
    const v = parseQuantity(q);
    if (v === undefined) errs.push(invalid(kp, q, 'quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\''));
    else if (v < 0) errs.push(invalid(kp, String(q), 'must be greater than or equal to 0'));
  }
  return errs;
}

function validateResources(c: RO<Container>, p: FieldPath): FieldError[] {
  const limits = c.resources?.limits ?? {};
  const requests = c.resources?.requests ?? {};
  const errs = [...validateResourceList(limits, p.child('limits')), ...validateResourceList(requests, p.child('requests'))];
  for (const [name, q] of Object.entries(requests)) {
    const limit = Object.hasOwn(limits, name) ? limits[name] : undefined;
    if (limit === undefined) continue;
    const rv = parseQuantity(q);
    const lv = parseQuantity(limit);
    if (rv !== undefined && lv !== undefined && rv > lv) {
      errs.push(invalid(p.child('requests').key(name), String(q), `must be less than or equal to ${name} limit of ${String(limit)}`));
    }
  }
  return errs;
}

function validateProbe(probe: RO<Probe> | undefined, p: FieldPath, successMustBeOne: boolean): FieldError[] {
  if (probe === undefined) return [];
  const errs: FieldError[] = [];
  const handlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'].filter((h) => probe[h as keyof Probe] !== undefined);
  if (handlers.length === 0) errs.push(required(p, 'must specify a handler type'));
  for (const h of handlers.slice(1)) errs.push(forbidden(p.child(h), 'may not specify more than 1 handler type'));
  for (const k of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    const v = probe[k];
    if (v !== undefined && v < 0) errs.push(invalid(p.child(k), v, 'must be greater than or equal to 0'));
  }
  if (successMustBeOne && probe.successThreshold !== undefined && probe.successThreshold !== 1) {
    errs.push(invalid(p.child('successThreshold'), probe.successThreshold, 'must be 1'));
  }
  const port = probe.httpGet?.port ?? probe.tcpSocket?.port;
  if (port !== undefined) {
    const pp = p.child(probe.httpGet !== undefined ? 'httpGet' : 'tcpSocket', 'port');
    if (typeof port === 'number') for (const m of isValidPortNum(port)) errs.push(invalid(pp, port, m));
    else for (const m of isValidPortName(port)) errs.push(invalid(pp, port, m));
  }
  return errs;
}

function validateContainer(c: RO<Container>, volumes: ReadonlySet<string>, p: FieldPath, probes: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const np = p.child('name');
  if ((c.name ?? '') === '') errs.push(required(np));
  else errs.push(...dns1123Label(c.name, np));
  const image = c.image ?? '';
  if (image === '') errs.push(required(p.child('image')));
  else if (image.trim() !== image) errs.push(invalid(p.child('image'), image, 'must not have leading or trailing whitespace'));
  const tmp = c.terminationMessagePolicy ?? '';
  if (tmp === '') errs.push(required(p.child('terminationMessagePolicy')));
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') {
    errs.push(notSupported(p.child('terminationMessagePolicy'), tmp, ['FallbackToLogsOnError', 'File']));
  }
  errs.push(...validatePorts(c, p.child('ports')), ...validateEnv(c, p.child('env')), ...validateVolumeMounts(c, volumes, p.child('volumeMounts')));
  const pull = c.imagePullPolicy ?? '';
  if (pull === '') errs.push(required(p.child('imagePullPolicy')));
  else if (!['Always', 'IfNotPresent', 'Never'].includes(pull)) errs.push(notSupported(p.child('imagePullPolicy'), pull, ['Always', 'IfNotPresent', 'Never']));
  errs.push(...validateResources(c, p.child('resources')));
  if (probes) {
    errs.push(...validateProbe(c.livenessProbe, p.child('livenessProbe'), true));
    errs.push(...validateProbe(c.readinessProbe, p.child('readinessProbe'), false));
    errs.push(...validateProbe(c.startupProbe, p.child('startupProbe'), true));
  }
  return errs;
}

export function validateRestartPolicy(policy: string | undefined, p: FieldPath): FieldError[] {
  const v = policy ?? '';
  if (v === '') return [required(p)];
  const valid = ['Always', 'OnFailure', 'Never'];
  return valid.includes(v) ? [] : [notSupported(p, v, valid)];
}

/** ValidatePodSpec (the common subset); `p` is `spec` for pods, `spec.template.spec` for templates. */
export function validatePodSpec(spec: RO<PodSpec>, p: FieldPath): FieldError[] {
  const { names: volumes, errs } = validateVolumes(spec.volumes, p.child('volumes'));
  const containers = spec.containers ?? [];
  const names = new Set<string>();
  if (containers.length === 0) errs.push(required(p.child('containers')));
  containers.forEach((c, i) => {
    const ip = p.child('containers').index(i);
    errs.push(...validateContainer(c, volumes, ip, true));
    if (names.has(c.name)) errs.push(duplicate(ip.child('name'), c.name));
    else names.add(c.name);
  });
  (spec.initContainers ?? []).forEach((c, i) => {
    const ip = p.child('initContainers').index(i);
    errs.push(...validateContainer(c, volumes, ip, c.restartPolicy === 'Always'));
    if (names.has(c.name)) errs.push(duplicate(ip.child('name'), c.name));
    else names.add(c.name);
  });
  errs.push(...validateRestartPolicy(spec.restartPolicy, p.child('restartPolicy')));
  const dns = spec.dnsPolicy ?? '';
  const dnsValid = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
  if (dns === '') errs.push(required(p.child('dnsPolicy')));
  else if (!dnsValid.includes(dns)) errs.push(notSupported(p.child('dnsPolicy'), dns, dnsValid));
  errs.push(...validateLabels(spec.nodeSelector, p.child('nodeSelector')));
  if ((spec.serviceAccountName ?? '') !== '') errs.push(...dns1123Subdomain(spec.serviceAccountName ?? '', p.child('serviceAccountName')));
  if ((spec.nodeName ?? '') !== '') errs.push(...dns1123Subdomain(spec.nodeName ?? '', p.child('nodeName')));
  if (spec.activeDeadlineSeconds !== undefined && (spec.activeDeadlineSeconds < 1 || spec.activeDeadlineSeconds > 2147483647)) {
    errs.push(invalid(p.child('activeDeadlineSeconds'), spec.activeDeadlineSeconds, inclusiveRangeError(1, 2147483647)));
  }
  if ((spec.hostname ?? '') !== '') errs.push(...dns1123Label(spec.hostname ?? '', p.child('hostname')));
  if ((spec.subdomain ?? '') !== '') errs.push(...dns1123Label(spec.subdomain ?? '', p.child('subdomain')));
  (spec.tolerations ?? []).forEach((t, i) => {
    const op = t.operator ?? '';
    if (op !== '' && op !== 'Equal' && op !== 'Exists') errs.push(notSupported(p.child('tolerations').index(i).child('operator'), op, ['Equal', 'Exists']));
    if (op === 'Exists' && (t.value ?? '') !== '') errs.push(invalid(p.child('tolerations').index(i).child('operator'), t.value, 'value must be empty when `operator` is \'Exists\''));
  });
  if ((spec.priorityClassName ?? '') !== '') errs.push(...dns1123Subdomain(spec.priorityClassName ?? '', p.child('priorityClassName')));
  if ((spec.schedulerName ?? '') !== '') errs.push(...dns1123Subdomain(spec.schedulerName ?? '', p.child('schedulerName')));
  return errs;
}

export function validatePod(pod: RO<Pod>): FieldError[] {
  return [
    ...validateObjectMeta(pod.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }),
    ...validatePodSpec(pod.spec ?? { containers: [] }, fieldPath('spec')),
  ];
}
