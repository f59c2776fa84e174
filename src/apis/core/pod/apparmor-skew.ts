// applyAppArmorVersionSkew of kube's pod strategy (PrepareForCreate): a container's deprecated AppArmor
// annotation (container.apparmor.security.beta.kubernetes.io/<name>) becomes its
// securityContext.appArmorProfile when that field is unset, and the request is warned that the
// annotation is deprecated: when the field is copied, or when the annotation names no valid profile.
// The warning is given here, before validation, so a pod refused for the annotation still carries it.
// Counterpart of pkg/registry/core/pod/strategy.go (applyAppArmorVersionSkew).
import type { RequestContext } from '../../../apimachinery/request/context.ts';
import type { Container, Pod } from '../v1/types.ts';
import { APPARMOR_PREFIX } from './annotations.ts';
import { child, obj, optStr, str, type Obj } from './spec-access.ts';
/** PATH_MAX - 1, as ValidateAppArmorProfileField. */
const MAX_LOCALHOST_PROFILE = 4095;

interface Profile { readonly type: string; readonly localhostProfile?: string }

/** ApparmorFieldForAnnotation: the field an annotation value stands for, if any. */
function profileOf(annotation: string): Profile | undefined {
  if (annotation === 'unconfined') return { type: 'Unconfined' };
  if (annotation === 'runtime/default') return { type: 'RuntimeDefault' };
  const local = annotation.startsWith('localhost/') ? annotation.slice('localhost/'.length) : '';
  return local === '' ? undefined : { type: 'Localhost', localhostProfile: local };
}

/** Whether ValidateAppArmorProfileField accepts a profile built from an annotation. */
function validProfile(p: Profile): boolean {
  const local = p.localhostProfile;
  return local === undefined || (local.trim() === local && local !== '' && local.length <= MAX_LOCALHOST_PROFILE);
}

const sameProfile = (a: Profile, b: Obj | undefined): boolean =>
  b !== undefined && str(b, 'type') === a.type && optStr(b, 'localhostProfile') === a.localhostProfile;

export function applyAppArmorVersionSkew(ctx: RequestContext, pod: Pod): void {
  const spec = pod.spec;
  if (str(child(obj(spec), 'os'), 'name') === 'windows') return;
  const podProfile = child(spec.securityContext, 'appArmorProfile');
  const annotations = pod.metadata.annotations ?? {};
  const containers: Container[] = [...spec.initContainers ?? [], ...spec.containers, ...spec.ephemeralContainers ?? []];
  for (const c of containers) {
    const key = `${APPARMOR_PREFIX}${c.name}`;
    const annotation = annotations[key];
    if (annotation === undefined || child(c.securityContext, 'appArmorProfile') !== undefined) continue;
    const candidate = profileOf(annotation);
    const profile = candidate !== undefined && validProfile(candidate) ? candidate : undefined;
    let warn = profile === undefined;
    if (profile !== undefined && !sameProfile(profile, podProfile)) {
      c.securityContext = { ...c.securityContext, appArmorProfile: { ...profile } };
      warn = true;
    }
    if (warn) ctx.warnings.addWarning(`metadata.annotations[${key}]: deprecated since v1.30; use the "appArmorProfile" field instead`);
  }
}
