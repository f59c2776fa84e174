// Go's formatting, for messages that must read exactly as kube-apiserver's: strconv quoting,
// fmt's %#v of the values validation reports and util/diff's unified diff. One module, so a
// message needing Go's text finds it here and nowhere else.
// Counterpart of strconv.Quote, fmt.Sprintf's %#v and k8s.io/apimachinery/pkg/util/diff.
export { firstUtf8Byte, goQuote, quoteChar } from './quote.ts';
export { goPathError, goStringSlice, goStringSliceMap, goTime } from './syntax.ts';
export type { GoField, GoValue } from './go-value.ts';
export { objectDiff, unifiedDiff } from './diff.ts';
