// What DefaultStorageClass and DefaultIngressClass share: of the classes marked default, the
// newest wins (ties go to the first name), as GetDefaultClass does since kube 1.26/1.28.
// Counterpart of getDefaultClass in plugin/pkg/admission/network/defaultingressclass and
// pkg/volume/util (GetDefaultClass).
import type { KubeObject } from '../../apimachinery/meta/types.ts';

/** The default among `classes`, undefined when none is marked. */
export function newestDefault<T extends KubeObject>(classes: readonly T[], isDefault: (c: T) => boolean): T | undefined {
  const ts = (c: T): number => Date.parse(c.metadata.creationTimestamp ?? '') || 0;
  return classes.filter(isDefault).sort((x, y) => {
    const d = ts(y) - ts(x);
    if (d !== 0) return d;
    const [a, b] = [x.metadata.name ?? '', y.metadata.name ?? ''];
    return a < b ? -1 : a > b ? 1 : 0;
  })[0];
}
