// Go's formatting as Go prints it: each case is what strconv.Quote, fmt's %#v or util/diff
// would print for the same value in Go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goQuote, goStringSlice, goStringSliceMap, goTime, quoteChar, unifiedDiff } from './index.ts';

test('Go formatting', () => {
  const cases: { name: string; got: string; want: string }[] = [
    { name: 'Quote plain', got: goQuote('abc'), want: '"abc"' },
    { name: 'Quote quotes and backslashes', got: goQuote('a"b\\c'), want: '"a\\"b\\\\c"' },
    { name: 'Quote control characters as \\x and the short escapes', got: goQuote('\u0001\u0007\n\t\u007f'), want: '"\\x01\\a\\n\\t\\x7f"' },
    { name: 'Quote keeps printable Unicode', got: goQuote('héllo ☃'), want: '"héllo ☃"' },
    { name: 'Quote escapes unprintable Unicode', got: goQuote('\u00ad\u200b'), want: '"\\u00ad\\u200b"' },
    { name: 'Quote a lone surrogate as the replacement character', got: goQuote('\ud800'), want: '"\\ufffd"' },
    { name: 'quoteChar of a quote', got: quoteChar(0x22), want: `'"'` },
    { name: 'quoteChar of an apostrophe', got: quoteChar(0x27), want: `'\\''` },
    { name: 'quoteChar of a newline', got: quoteChar(0x0a), want: `'\\n'` },
    { name: '%#v []string', got: goStringSlice(['a', 'b"']), want: '[]string{"a", "b\\""}' },
    // The copies this module replaced quoted with JSON.stringify, which writes \u0001 where Go writes \x01.
    { name: '%#v []string quotes as strconv.Quote', got: goStringSlice(['\u0001', 'é\u007f']), want: '[]string{"\\x01", "é\\x7f"}' },
    { name: '%#v empty []string', got: goStringSlice([]), want: '[]string{}' },
    { name: '%#v nil []string', got: goStringSlice(undefined), want: '[]string(nil)' },
    { name: '%#v map[string][]string', got: goStringSliceMap({ scopes: ['view'] }), want: 'map[string][]string{"scopes":[]string{"view"}}' },
    { name: '%#v nil map[string][]string', got: goStringSliceMap(undefined), want: 'map[string][]string(nil)' },
    { name: '%#v time.Time', got: goTime('2024-03-05T06:07:08.5Z'), want: 'time.Date(2024, time.March, 5, 6, 7, 8, 500000000, time.Local)' },
    { name: '%#v zero time.Time', got: goTime(undefined), want: 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)' },
    { name: 'util/diff of two texts', got: unifiedDiff('a\nb\n', 'a\nc\n'), want: '@@ -1,3 +1,3 @@\n a\n-b\n+c\n \n' },
  ];
  for (const c of cases) assert.equal(c.got, c.want, c.name);
});
