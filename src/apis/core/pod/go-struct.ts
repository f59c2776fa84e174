// Some of kube's messages print the internal Go struct of the bad value as JSON with Go's field
// names (`{"Type":"RuntimeDefault","LocalhostProfile":"p"}`): nil pointers and slices as null,
// unset strings as "". The text comes from the shared tables of go-types/go-json.ts.
// Counterpart of encoding/json printing the internal types of pkg/apis/core.
import { GoSyntax } from '../../../apimachinery/errors/field-errors.ts';
import { goCompactJSON } from '../go-types/go-json.ts';
import type { Obj } from './spec-access.ts';

/** The internal types these messages print (names of the go-types tables). */
export const SECCOMP_PROFILE = 'SeccompProfile';
export const SECURITY_CONTEXT = 'SecurityContext';
export const POD_RESOURCE_CLAIM = 'PodResourceClaim';
export const NODE_SELECTOR_TERM = 'NodeSelectorTerm';

/** A slice of structs as kube prints it. */
export const goStructs = (items: readonly Obj[], type: string): GoSyntax => new GoSyntax(goCompactJSON(items, `[]${type}`));

/** The bad value of a struct as kube prints it. */
export const goStruct = (o: Obj, type: string): GoSyntax => new GoSyntax(goCompactJSON(o, type));
