// Quantities at the edges of resource.ParseQuantity (k8s.io/apimachinery pkg/api/resource), as a
// container's memory limit (the limit is copied to the request): texts kube's odd grammar accepts
// ("." and "e3" are 0), the BinarySI cap at math.MaxInt64 ("2048Ei"), decimal values with no cap
// ("1e400"), DecimalSI beyond the E suffix ("1000E" prints as "1"), spaces Quantity.UnmarshalJSON
// trims, escapes it does not, and the three parse errors. The accepted ones keep the stored text.
// No Go counterpart: the e2e test harness.

/** A case of the pod corpus (its PodCase, which this file may not import: the corpus imports it). */
export interface QuantityCase {
  readonly name: string;
  readonly container: Record<string, unknown>;
  readonly keep: (pod: { spec: Record<string, unknown> }) => unknown;
}

const memory = (name: string, value: unknown): QuantityCase => ({
  name: `quantity ${name}`,
  container: { resources: { limits: { memory: value } } },
  keep: (p) => (p.spec['containers'] as Record<string, unknown>[])[0]?.['resources'],
});

export const QUANTITY_CASES: readonly QuantityCase[] = [
  memory('"."', '.'),
  memory('"+." ', '+.'),
  memory('"e3"', 'e3'),
  memory('"m"', 'm'),
  memory('"Ki"', 'Ki'),
  memory('"-"', '-'),
  memory('"2048Ei" capped', '2048Ei'),
  memory('"8Ei" capped', '8Ei'),
  memory('"7Ei" kept', '7Ei'),
  memory('"12345678901234567890Ki" capped', '12345678901234567890Ki'),
  memory('"1000000000000000000000000000Mi" capped', '1000000000000000000000000000Mi'),
  memory('"-2048Ei" capped and negative', '-2048Ei'),
  memory('"1e400" uncapped', '1e400'),
  memory('"99999999999999999999999999999"', '99999999999999999999999999999'),
  memory('"1000E" beyond the suffixes', '1000E'),
  memory('"1e21"', '1e21'),
  memory('"1e-400" rounded up', '1e-400'),
  memory('"0.5Ki"', '0.5Ki'),
  memory('"1.Ki"', '1.Ki'),
  memory('" 1" trimmed', ' 1'),
  memory('"  2 " trimmed', '  2 '),
  memory('"\\t3" escaped', '\t3'),
  memory('"1\\n" escaped', '1\n'),
  memory('"" empty', ''),
  memory('"e" suffix', 'e'),
  memory('"1e" suffix', '1e'),
  memory('"1K" suffix', '1K'),
  memory('"1e3m" format', '1e3m'),
  memory('"1.2.3" format', '1.2.3'),
  memory('"0x10" format', '0x10'),
  memory('"1e99999999999999999999" exponent overflows int64', '1e99999999999999999999'),
  memory('number 1.5', 1.5),
  memory('bool', true),
];
