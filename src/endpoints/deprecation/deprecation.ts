// The warning every request to a deprecated kind carries (apiserver/pkg/endpoints/deprecation).
// Counterpart of k8s.io/apiserver/pkg/endpoints/deprecation.
import type { GroupVersion } from '../../apimachinery/schema/group-version.ts';
import type { APILifecycle } from '../../registry/rest/strategy.ts';

const gvString = (group: string, version: string): string => (group === '' ? version : `${group}/${version}`);

/**
 * `<group/version> <Kind> is deprecated in vX.Y+[, unavailable in vX.Y+][; use <group/version> <Kind>]`,
 * the text kube-apiserver sends as a `299` Warning header.
 */
export function deprecationWarning(gv: GroupVersion, kind: string, lifecycle: APILifecycle): string {
  const [major, minor] = lifecycle.deprecated;
  let text = `${gvString(gv.group, gv.version)} ${kind} is deprecated in v${major}.${minor}+`;
  if (lifecycle.removed !== undefined) text += `, unavailable in v${lifecycle.removed[0]}.${lifecycle.removed[1]}+`;
  const r = lifecycle.replacement;
  if (r !== undefined) text += `; use ${gvString(r.group, r.version)} ${r.kind}`;
  return text;
}
