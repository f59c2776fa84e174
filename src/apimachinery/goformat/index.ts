// Go's formatting, for messages that must read exactly as kube-apiserver's: strconv quoting,
// fmt's %#v of the values validation reports, go-cmp's cmp.Diff report and util/diff's
// unified diff. One module, so a message needing Go's text finds it here and nowhere else.
// Counterpart of strconv.Quote, fmt.Sprintf's %#v, github.com/google/go-cmp/cmp and k8s.io/apimachinery/pkg/util/diff.
export { firstUtf8Byte, goQuote, quoteChar } from './quote.ts';
export { goBytes, goStringMap, goStringSlice, goStringSliceMap, goTime } from './syntax.ts';
export { cmpDiff, type GoField, type GoValue } from './cmp-diff.ts';
export { objectDiff, unifiedDiff } from './diff.ts';
