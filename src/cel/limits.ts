// The limits kube puts on CEL: runtime cost budgets per expression and per request, and the sizes the
// cost estimator assumes. Go counterparts: k8s.io/apiserver/pkg/apis/cel/config.go,
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go.

/** The most a single expression may cost at runtime. */
export const PerCallLimit = 1_000_000;
/** The most all CRD validation rules of one object may cost at runtime (per validation). */
export const RuntimeCELCostBudget = 10_000_000;
/** The most all matchConditions of one webhook may cost at runtime. */
export const RuntimeCELCostBudgetMatchConditions = 2_500_000;
/** The largest request body kube accepts, the bound of sizes the schema does not limit. */
export const MaxRequestSizeBytes = 3 * 1024 * 1024;
/** The longest message a messageExpression may produce. */
export const MaxEvaluatedMessageExpressionSizeBytes = 5 * 1024;
/** The largest estimated cost of a single CRD rule (or messageExpression). */
export const StaticEstimatedCostLimit = 10_000_000;
/** The largest estimated cost of all rules of a CRD, each multiplied by how often it can run. */
export const StaticEstimatedCRDCostLimit = 100_000_000;
