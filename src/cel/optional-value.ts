// Values of CEL's optional type for variables declared optional (VariableDecl.optional): a CRD
// transition rule with optionalOldSelf sees oldSelf as optional.of(old) or optional.none().
// Go counterpart: cel-go's types.OptionalOf / types.OptionalNone.
import { Optional } from '@marcbachmann/cel-js';

/** optional.of(v) for a CEL value v (see toCelValue). */
export const optionalOf = (v: unknown): unknown => Optional.of(v);
/** optional.none(). */
export const optionalNone = (): unknown => Optional.none();
