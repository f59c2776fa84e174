// A typed view of the library's parsed and checked expression tree, for the passes kube's environment
// needs on top of the library: rejecting what kube's environment does not declare, putting kube's
// implementation behind calls whose library behaviour differs (RE2 regexes, ASCII-only case mapping,
// code-point indexes, cel-go's error texts) and estimating cost.
// No Go counterpart (cel-go's checker and planner do this in one place).

/** A node of the library's AST as this code reads it (fields set by the parser and the checker). */
export interface AstNode {
  readonly op: string;
  readonly args: unknown;
  readonly start: number;
  readonly end: number;
  readonly pos: number;
  /** Set by the checker. */
  readonly checkedType?: AstType | undefined;
  /** The call's implementation, set by the checker; replaced by `overrideCall`. */
  handle?: unknown;
  /** The parser's and checker's notes: a macro's expansion (`alternate`) or handler (`macro`). */
  readonly meta?: { readonly alternate?: unknown; readonly macro?: unknown };
  /** Sets one of those notes (the library's ASTNode.setMeta). */
  setMeta?(key: string, value: unknown): unknown;
}

/** The library's type of a checked node. */
export interface AstType {
  readonly name: string;
  readonly kind: string;
  readonly valueType?: AstType | undefined;
  readonly keyType?: AstType | undefined;
}

const isNode = (x: unknown): x is AstNode => typeof x === 'object' && x !== null && 'op' in x && 'start' in x;

/** The direct children of a node, in source order. */
export function children(n: AstNode): AstNode[] {
  const a = n.args;
  switch (n.op) {
    case 'value':
    case 'id':
      return [];
    case '.':
    case '.?':
      return isNode((a as unknown[])[0]) ? [(a as AstNode[])[0]!] : [];
    case 'call':
      return ((a as [string, unknown[]])[1]).filter(isNode);
    case 'rcall': {
      const [, receiver, args] = a as [string, unknown, unknown[]];
      return [receiver, ...args].filter(isNode);
    }
    case 'map':
      return (a as [unknown, unknown][]).flat().filter(isNode);
    default:
      if (isNode(a)) return [a];
      return Array.isArray(a) ? a.filter(isNode) : [];
  }
}

/** Every node of the tree, parents before children. */
export function* walk(n: AstNode): Generator<AstNode> {
  yield n;
  for (const c of children(n)) yield* walk(c);
}

/** The function name of a call or receiver call node. */
export const callName = (n: AstNode): string | undefined =>
  n.op === 'call' || n.op === 'rcall' ? (n.args as [string])[0] : undefined;

/** The receiver of a receiver call node. */
export const receiverOf = (n: AstNode): AstNode | undefined => (n.op === 'rcall' ? (n.args as [string, AstNode])[1] : undefined);

/** The (non-receiver) arguments of a call or receiver call node. */
export const argsOf = (n: AstNode): AstNode[] =>
  n.op === 'call' ? (n.args as [string, AstNode[]])[1] : n.op === 'rcall' ? (n.args as [string, AstNode, AstNode[]])[2] : [];

/**
 * Makes a checked call node run `fn` with the evaluated receiver (for a receiver call) and
 * arguments. The library calls a call node's handle with (args, ast, ev) and a receiver call's with
 * (receiverAndArgs, ev, ast); both pass the values as the first argument.
 */
export function overrideCall(n: AstNode, fn: (...args: unknown[]) => unknown): void {
  n.handle = (values: unknown[]): unknown => fn(...values);
}
