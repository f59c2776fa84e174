// The built-in API groups other than core, in the order kube-apiserver lists them in /apis.
import { appsGroup } from '../apis/apps/install.ts';
import type { APIGroupDefinition } from '../registry/rest/group.ts';

export function builtInGroups(): APIGroupDefinition[] {
  return [appsGroup];
}
