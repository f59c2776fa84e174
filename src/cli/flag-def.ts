// What one command-line flag is: its name, kind (which parser and which --help type name), default
// and help text. The flag table and the per-concern flag lists (authn, audit) share it.
// Counterpart of github.com/spf13/pflag's Flag.

export type Kind = 'int' | 'float32' | 'float64' | 'string' | 'bool' | 'duration' | 'strings' | 'map' | 'mapNoSplit' | 'ip' | 'level' | 'portRange';

/** An empty default is the kind's zero value, not shown in --help. */
export interface FlagDef { readonly name: string; readonly kind: Kind; readonly def: string; readonly usage: string; readonly short?: string }
