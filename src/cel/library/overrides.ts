// Calls whose library behaviour differs from cel-go's as kube runs it. The library cannot replace a
// built-in overload, so compile() puts these implementations behind the checked call nodes instead
// (ast.ts overrideCall). Each entry is one function name and arity, for receiver calls on `receiver`.
import type { AstNode } from '../ast.ts';

export interface CallOverride {
  readonly name: string;
  /** The receiver's library type for receiver calls (`string`); undefined for global calls. */
  readonly receiver?: string;
  /** Arguments besides the receiver. */
  readonly arity: number;
  readonly fn: (...args: never[]) => unknown;
  /** Validates literal arguments at compile time; returns the failing argument and cel-go's message. */
  readonly validate?: (args: readonly AstNode[]) => { readonly node: AstNode; readonly message: string } | undefined;
}

const table = new Map<string, CallOverride>();

const keyOf = (name: string, receiver: boolean, arity: number): string => `${receiver ? '.' : ''}${name}/${arity}`;

export function addOverride(o: CallOverride): void {
  table.set(keyOf(o.name, o.receiver !== undefined, o.arity), o);
}

/** The override for a call of `name` with `arity` arguments (receiver calls: besides the receiver). */
export function findOverride(name: string, receiver: boolean, arity: number): CallOverride | undefined {
  return table.get(keyOf(name, receiver, arity));
}
