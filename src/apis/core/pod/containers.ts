// Containers of every kind (validateContainers, validateInitContainers, validateEphemeralContainers,
// validateContainerCommon) with their ports and volume mounts.
// Counterpart of pkg/apis/core/validation/validation.go (validateContainers).
import { duplicate, forbidden, invalid, notFound, notSupported, required, tooMany, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isValidPortName, isValidPortNum } from '../../../apimachinery/validation/validation.ts';
import { validateEnv, validateEnvFrom } from './env.ts';
import { validateLifecycle, validateProbe } from './probes.ts';
import { validateResourceRequirements } from './resources.ts';
import { validateContainerSecurityContext } from './security-context.ts';
import { child, dns1123Label, list, num, obj, objects, optStr, str, validatePullPolicy, type Obj } from './spec-access.ts';
import { validateLocalDescendingPath } from './volumes.ts';

/** What every container check needs to know about the pod around it. */
export interface ContainerContext {
  readonly volumes: ReadonlySet<string>;
  /** The valid volumes a block device may use: persistentVolumeClaim and ephemeral ones. */
  readonly blockVolumes: ReadonlySet<string>;
  readonly claimNames: ReadonlySet<string>;
  readonly gracePeriod: number | undefined;
  readonly os: string | undefined;
  readonly podRestartPolicy: string;
  readonly hostUsers: boolean;
}

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

function validatePorts(ports: readonly Obj[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const ip = p.index(i);
    const name = str(port, 'name');
    if (name !== '') {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) for (const m of msgs) errs.push(invalid(ip.child('name'), name, m));
      else if (names.has(name)) errs.push(duplicate(ip.child('name'), name));
      else names.add(name);
    }
    const containerPort = num(port, 'containerPort') ?? 0;
    if (containerPort === 0) errs.push(required(ip.child('containerPort')));
    else for (const m of isValidPortNum(containerPort)) errs.push(invalid(ip.child('containerPort'), containerPort, m));
    const hostPort = num(port, 'hostPort') ?? 0;
    if (hostPort !== 0) for (const m of isValidPortNum(hostPort)) errs.push(invalid(ip.child('hostPort'), hostPort, m));
    const proto = str(port, 'protocol');
    if (proto === '') errs.push(required(ip.child('protocol')));
    else if (!PROTOCOLS.includes(proto)) errs.push(notSupported(ip.child('protocol'), proto, PROTOCOLS));
  });
  return errs;
}

/** checkHostPortConflicts: one protocol/hostIP/hostPort per group of containers. */
export function checkHostPortConflicts(containers: readonly Obj[], p: FieldPath, seen = new Set<string>()): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, ci) => objects(c, 'ports').forEach((port, pi) => {
    const hostPort = num(port, 'hostPort') ?? 0;
    if (hostPort === 0) return;
    const key = `${str(port, 'protocol')}/${str(port, 'hostIP')}/${hostPort}`;
    if (seen.has(key)) errs.push(duplicate(p.index(ci).child('ports').index(pi).child('hostPort'), key));
    seen.add(key);
  }));
  return errs;
}

const PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const RECURSIVE_READ_ONLY = ['Disabled', 'Enabled', 'IfPossible'];

function validateVolumeMounts(c: Obj, volumes: ReadonlySet<string>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  const devices = objects(c, 'volumeDevices');
  const privileged = child(c, 'securityContext')?.['privileged'] === true;
  objects(c, 'volumeMounts').forEach((m, i) => {
    const ip = p.index(i);
    const name = str(m, 'name');
    const mountPath = str(m, 'mountPath');
    if (name === '') errs.push(required(ip.child('name')));
    if (!volumes.has(name)) errs.push(notFound(ip.child('name'), name));
    if (mountPath === '') errs.push(required(ip.child('mountPath')));
    if (paths.has(mountPath)) errs.push(invalid(ip.child('mountPath'), mountPath, 'must be unique'));
    paths.add(mountPath);
    if (devices.some((d) => str(d, 'name') === name)) errs.push(invalid(ip.child('name'), name, 'must not already exist in volumeDevices'));
    if (devices.some((d) => str(d, 'devicePath') === mountPath)) {
      errs.push(invalid(ip.child('mountPath'), mountPath, 'must not already exist as a path in volumeDevices'));
    }
    // kube reports these three on the list path, without the index
    const subPath = str(m, 'subPath');
    const subPathExpr = str(m, 'subPathExpr');
    if (subPath !== '') errs.push(...validateLocalDescendingPath(subPath, p.child('subPath')));
    if (subPathExpr !== '') {
      if (subPath !== '') errs.push(invalid(ip.child('subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(subPathExpr, p.child('subPathExpr')));
    }
    const propagation = optStr(m, 'mountPropagation');
    if (propagation !== undefined) {
      const pp = p.child('mountPropagation');
      if (!PROPAGATIONS.includes(propagation)) errs.push(notSupported(pp, propagation, PROPAGATIONS));
      if (propagation === 'Bidirectional' && !privileged) errs.push(forbidden(pp, 'Bidirectional mount propagation is available only to privileged containers'));
    }
    const rro = optStr(m, 'recursiveReadOnly');
    if (rro !== undefined && rro !== 'Disabled') {
      const rp = p.child('recursiveReadOnly');
      if (!RECURSIVE_READ_ONLY.includes(rro)) errs.push(notSupported(rp, rro, RECURSIVE_READ_ONLY));
      else {
        if (m['readOnly'] !== true) errs.push(forbidden(rp, 'may only be specified when readOnly is true'));
        if (propagation !== undefined && propagation !== 'None') errs.push(forbidden(rp, 'may only be specified when mountPropagation is None or not specified'));
      }
    }
  });
  return errs;
}

/** ValidateVolumeDevices: block devices of claimed volumes, each name and path once and apart from the mounts. */
function validateVolumeDevices(c: Obj, ctx: ContainerContext, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const mounts = objects(c, 'volumeMounts');
  const paths = new Set<string>();
  const names = new Set<string>();
  objects(c, 'volumeDevices').forEach((d, i) => {
    const ip = p.index(i);
    const name = str(d, 'name');
    const devicePath = str(d, 'devicePath');
    if (name === '') errs.push(required(ip.child('name')));
    if (names.has(name)) errs.push(invalid(ip.child('name'), name, 'must be unique'));
    if (ctx.volumes.has(name) && !ctx.blockVolumes.has(name)) {
      errs.push(invalid(ip.child('name'), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (!ctx.volumes.has(name)) errs.push(notFound(ip.child('name'), name));
    if (devicePath === '') errs.push(required(ip.child('devicePath')));
    if (paths.has(devicePath)) errs.push(invalid(ip.child('devicePath'), devicePath, 'must be unique'));
    if (devicePath !== '' && devicePath.split('/').includes('..')) errs.push(invalid(ip.child('devicePath'), devicePath, "can not contain backsteps ('..')"));
    else paths.add(devicePath);
    if (mounts.some((m) => str(m, 'name') === name)) errs.push(invalid(ip.child('name'), name, 'must not already exist in volumeMounts'));
    if (mounts.some((m) => str(m, 'mountPath') === devicePath)) {
      errs.push(invalid(ip.child('devicePath'), devicePath, 'must not already exist as a path in volumeMounts'));
    }
    if (name !== '') names.add(name);
  });
  return errs;
}

const RESIZE_RESOURCES = ['cpu', 'memory'];
const RESIZE_POLICIES = ['NotRequired', 'RestartContainer'];

function validateResizePolicy(c: Obj, podRestartPolicy: string, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objects(c, 'resizePolicy').forEach((rp, i) => {
    const name = str(rp, 'resourceName');
    const policy = str(rp, 'restartPolicy');
    if (seen.has(name)) errs.push(duplicate(p.index(i), name));
    seen.add(name);
    if (name === '') errs.push(required(p));
    else if (!RESIZE_RESOURCES.includes(name)) errs.push(notSupported(p, name, RESIZE_RESOURCES));
    if (policy === '') errs.push(required(p));
    else if (!RESIZE_POLICIES.includes(policy)) errs.push(notSupported(p, policy, RESIZE_POLICIES));
    if (podRestartPolicy === 'Never' && policy !== 'NotRequired') errs.push(invalid(p, policy, "must be 'NotRequired' when pod `restartPolicy` is 'Never'"));
  });
  return errs;
}

const CONTAINER_RESTART_POLICIES = ['Always', 'Never', 'OnFailure'];
const RESTART_ACTIONS = ['Restart', 'RestartAllContainers'];

/** validateContainerRestartPolicy (ContainerRestartRules and RestartAllContainersOnContainerExits are on in v1.36). */
function validateContainerRestartPolicy(c: Obj, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const policy = optStr(c, 'restartPolicy');
  const rules = objects(c, 'restartPolicyRules');
  if (policy === undefined) {
    if (rules.length === 0) return errs;
    errs.push(required(p.child('restartPolicy'), 'must specify restartPolicy when restart rules are used'));
  } else if (!CONTAINER_RESTART_POLICIES.includes(policy)) {
    errs.push(notSupported(p.child('restartPolicy'), policy, CONTAINER_RESTART_POLICIES));
  }
  if (rules.length > 20) errs.push(tooMany(p.child('restartPolicyRules'), rules.length, 20));
  rules.forEach((r, i) => {
    const rp = p.child('restartPolicyRules').index(i);
    const action = str(r, 'action');
    if (!RESTART_ACTIONS.includes(action)) errs.push(notSupported(rp.child('action'), action, RESTART_ACTIONS));
    const exitCodes = child(r, 'exitCodes');
    if (exitCodes === undefined) errs.push(required(rp.child('exitCodes'), 'must be specified'));
    else {
      const op = str(exitCodes, 'operator');
      if (op !== 'In' && op !== 'NotIn') errs.push(notSupported(rp.child('exitCodes', 'operator'), op, ['In', 'NotIn']));
      const values = list(exitCodes, 'values');
      if (values.length > 255) errs.push(tooMany(rp.child('exitCodes', 'values'), values.length, 255));
    }
  });
  return errs;
}

const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];

function validateContainerCommon(c: Obj, ctx: ContainerContext, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c, 'name');
  if (name === '') errs.push(required(p.child('name')));
  else errs.push(...dns1123Label(name, p.child('name')));
  if (str(c, 'image') === '') errs.push(required(p.child('image')));
  const tmp = str(c, 'terminationMessagePolicy');
  if (tmp === '') errs.push(required(p.child('terminationMessagePolicy')));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(tmp)) errs.push(notSupported(p.child('terminationMessagePolicy'), tmp, TERMINATION_MESSAGE_POLICIES));
  errs.push(...validatePorts(objects(c, 'ports'), p.child('ports')));
  errs.push(...validateEnv(list(c, 'env'), p.child('env')));
  errs.push(...validateEnvFrom(list(c, 'envFrom'), p.child('envFrom')));
  errs.push(...validateVolumeMounts(c, ctx.volumes, p.child('volumeMounts')));
  errs.push(...validateVolumeDevices(c, ctx, p.child('volumeDevices')));
  errs.push(...validatePullPolicy(str(c, 'imagePullPolicy'), p.child('imagePullPolicy')));
  errs.push(...validateResourceRequirements(c['resources'], ctx.claimNames, p.child('resources')));
  errs.push(...validateResizePolicy(c, ctx.podRestartPolicy, p.child('resizePolicy')));
  errs.push(...validateContainerSecurityContext(c['securityContext'], ctx.hostUsers, p.child('securityContext')));
  return errs;
}

function validateProbesAndLifecycle(c: Obj, ctx: ContainerContext, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const lc = child(c, 'lifecycle');
  if (lc !== undefined) errs.push(...validateLifecycle(lc, ctx.gracePeriod, ctx.os, p.child('lifecycle')));
  for (const kind of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    errs.push(...validateProbe(child(c, kind), kind, ctx.gracePeriod, p.child(kind)));
  }
  return errs;
}

const asObjects = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((c) => obj(c) ?? {}) : []);

export function validateContainers(raw: unknown, ctx: ContainerContext, p: FieldPath): FieldError[] {
  const containers = asObjects(raw);
  if (containers.length === 0) return [required(p)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const ip = p.index(i);
    errs.push(...validateContainerCommon(c, ctx, ip));
    if (names.has(str(c, 'name'))) errs.push(duplicate(ip.child('name'), str(c, 'name')));
    else names.add(str(c, 'name'));
    errs.push(...validateProbesAndLifecycle(c, ctx, ip));
    errs.push(...validateContainerRestartPolicy(c, ip));
  });
  return [...errs, ...checkHostPortConflicts(containers, p)];
}

const NOT_FOR_INIT = 'may not be set for init containers without restartPolicy=Always';

export function validateInitContainers(raw: unknown, regular: unknown, ctx: ContainerContext, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(asObjects(regular).map((c) => str(c, 'name')));
  asObjects(raw).forEach((c, i) => {
    const ip = p.index(i);
    errs.push(...validateContainerCommon(c, ctx, ip));
    const restartAlways = optStr(c, 'restartPolicy') === 'Always';
    if (optStr(c, 'restartPolicy') === undefined) {
      if (list(c, 'restartPolicyRules').length > 0) errs.push(required(ip.child('restartPolicy'), 'must specify restartPolicy when restart rules are used'));
    } else {
      errs.push(...validateContainerRestartPolicy(c, ip));
    }
    const name = str(c, 'name');
    if (names.has(name)) errs.push(duplicate(ip.child('name'), name));
    else if (name !== '') names.add(name);
    errs.push(...checkHostPortConflicts([c], p));
    if (restartAlways) errs.push(...validateProbesAndLifecycle(c, ctx, ip));
    else {
      for (const k of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (c[k] !== undefined && c[k] !== null) errs.push(forbidden(ip.child(k), NOT_FOR_INIT));
      }
      objects(c, 'resizePolicy').forEach((rp, j) => {
        if (str(rp, 'restartPolicy') === 'RestartContainer') {
          errs.push(invalid(ip.child('resizePolicy').index(j).child('restartPolicy'), 'RestartContainer', "must not be set to 'RestartContainer' for non-sidecar initContainers"));
        }
      });
    }
  });
  return errs;
}

/** Go's zero value test of validateFieldAllowList: absent, false, 0, '' or empty. */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.values(v).every(isZero);
}

/** Fields an ephemeral container may set (allowedEphemeralContainerFields). */
const EPHEMERAL_ALLOWED = new Set(['name', 'image', 'command', 'args', 'workingDir', 'env', 'envFrom', 'volumeMounts', 'volumeDevices',
  'terminationMessagePath', 'terminationMessagePolicy', 'imagePullPolicy', 'securityContext', 'stdin', 'stdinOnce', 'tty', 'targetContainerName']);
const EPHEMERAL_FORBIDDEN = 'cannot be set for an Ephemeral Container';

export function validateEphemeralContainers(raw: unknown, containers: unknown, initContainers: unknown, ctx: ContainerContext, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const others = new Set([...asObjects(containers), ...asObjects(initContainers)].map((c) => str(c, 'name')));
  const all = new Set(others);
  asObjects(raw).forEach((c, i) => {
    const ip = p.index(i);
    errs.push(...validateContainerCommon(c, ctx, ip), ...validateContainerOnlyForPod(c, ip));
    const name = str(c, 'name');
    if (all.has(name)) errs.push(duplicate(ip.child('name'), name));
    else all.add(name);
    const target = str(c, 'targetContainerName');
    if (target !== '' && !others.has(target)) errs.push(notFound(ip.child('targetContainerName'), target));
    for (const k of Object.keys(c)) {
      if (!EPHEMERAL_ALLOWED.has(k) && !isZero(c[k])) errs.push(forbidden(ip.child(k), EPHEMERAL_FORBIDDEN));
    }
    objects(c, 'volumeMounts').forEach((m, j) => {
      for (const k of ['subPath', 'subPathExpr']) if (str(m, k) !== '') errs.push(forbidden(ip.child('volumeMounts').index(j).child(k), EPHEMERAL_FORBIDDEN));
    });
  });
  return errs;
}

/** validateContainerOnlyForPod: pods (not templates) may not pad the image with whitespace. */
export function validateContainerOnlyForPod(c: Obj, p: FieldPath): FieldError[] {
  const image = str(c, 'image');
  return image.trim() !== image ? [invalid(p.child('image'), image, 'must not have leading or trailing whitespace')] : [];
}

export function validateContainersOnlyForPod(raw: unknown, p: FieldPath): FieldError[] {
  return asObjects(raw).flatMap((c, i) => validateContainerOnlyForPod(c, p.index(i)));
}
