// aggregator_unavailable_apiservice: 1 for each APIService whose Available condition is not True,
// 0 for the others (local ones included), as the availability controller of kube-aggregator
// sets it; an APIService deleted leaves no series.
// Counterpart of k8s.io/kube-aggregator/pkg/controllers/status/metrics.
import { newGauge } from '../apimachinery/metrics/registry.ts';

const unavailable = new Map<string, boolean>();

newGauge<'name'>({
  name: 'aggregator_unavailable_apiservice', stability: 'ALPHA', labelNames: ['name'],
  help: 'Gauge of APIServices which are marked as unavailable broken down by APIService name.',
  collect() {
    this.reset();
    for (const [name, down] of unavailable) this.set({ name }, down ? 1 : 0);
  },
});

export function noteAPIServiceAvailability(name: string, available: boolean | undefined): void {
  if (available === undefined) unavailable.delete(name); else unavailable.set(name, !available);
}
