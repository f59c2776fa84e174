// Property names as CEL sees them: kube escapes OpenAPI property names that are CEL reserved words
// or hold characters CEL identifiers cannot, so `x-kubernetes-foo` is `x__dash__kubernetes__dash__foo`.
// Names that cannot be escaped (leading digit, other characters) are simply not visible in CEL.
// Go counterpart: k8s.io/apiserver/pkg/cel/escaping.go.

/** CEL's reserved words (language keywords and words reserved for future use). */
const RESERVED = new Set([
  'true', 'false', 'null', 'in',
  'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

const SIMPLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const EXPANDABLE = /^[A-Za-z0-9_./-]*$/;

/** The CEL field name for an OpenAPI property name, or undefined when it cannot be expressed. */
export function escapeName(ident: string): string | undefined {
  if (ident.length === 0 || (ident[0]! >= '0' && ident[0]! <= '9')) return undefined;
  if (RESERVED.has(ident)) return `__${ident}__`;
  if (SIMPLE.test(ident) && !ident.includes('__')) return ident;
  if (!EXPANDABLE.test(ident)) return undefined;
  return ident.replace(/__|[-./]/g, (s) => {
    switch (s) {
      case '__': return '__underscores__';
      case '.': return '__dot__';
      case '-': return '__dash__';
      default: return '__slash__';
    }
  });
}

/** The OpenAPI property name of an escaped CEL field name, or undefined when it is not a valid escape. */
export function unescapeName(escaped: string): string | undefined {
  let ok = true;
  const out = escaped.replace(/__[^_]+__/g, (s) => {
    const inner = s.slice(2, -2);
    switch (inner) {
      case 'underscores': return '__';
      case 'dot': return '.';
      case 'dash': return '-';
      case 'slash': return '/';
    }
    // A reserved word is only an escape when it is the whole name (`__if__`, not `a__if__`).
    if (RESERVED.has(inner) && s.length === escaped.length) return inner;
    ok = false;
    return '';
  });
  return ok ? out : undefined;
}
