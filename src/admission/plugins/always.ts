// AlwaysAdmit and AlwaysDeny: kube keeps them (deprecated) for tests; AlwaysDeny refuses every
// request that reaches admission with kube's message.
// Counterpart of plugin/pkg/admission/admit and plugin/pkg/admission/deny.
import { newForbidden } from '../../apimachinery/errors/status-error.ts';
import type { Attributes, Plugin } from '../interfaces.ts';
import { admissionName } from './limit-ranger.ts';

export function alwaysAdmit(): Plugin {
  return { name: 'AlwaysAdmit', handles: () => true };
}

export function alwaysDeny(): Plugin {
  const deny = (a: Attributes): Promise<void> => Promise.reject(newForbidden({ group: a.resource.group, resource: a.resource.resource },
    admissionName(a), 'admission control is denying all modifications'));
  return { name: 'AlwaysDeny', handles: () => true, admit: (_ctx, a) => deny(a), validate: (_ctx, a) => deny(a) };
}
