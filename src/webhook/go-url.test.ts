import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoURL } from './go-url.ts';

// What Go's url.Parse answers for webhook URLs (the parts ValidateWebhookURL reads).
describe('parseGoURL', () => {
  const cases: { name: string; url: string; want: ReturnType<typeof parseGoURL> }[] = [
    { name: 'plain https', url: 'https://example.com/hook', want: { scheme: 'https', host: 'example.com', rawQuery: '', fragment: '' } },
    { name: 'empty host stays empty', url: 'https:///hook', want: { scheme: 'https', host: '', rawQuery: '', fragment: '' } },
    { name: 'user info, query and fragment', url: 'HTTPS://u:p@h:8443/x?a=b#f', want: { scheme: 'https', host: 'h:8443', user: 'u:p', rawQuery: 'a=b', fragment: 'f' } },
    { name: 'opaque', url: 'https:example.com', want: { scheme: 'https', host: '', rawQuery: '', fragment: '' } },
    { name: 'bad escape', url: '%zz', want: 'parse "%zz": invalid URL escape "%zz"' },
    { name: 'missing scheme', url: '://x', want: 'parse "://x": missing protocol scheme' },
    { name: 'colon in first segment', url: 'a:b/c', want: { scheme: 'a', host: '', rawQuery: '', fragment: '' } },
    { name: 'bad port', url: 'https://h:abc/', want: 'parse "https://h:abc/": invalid port ":abc" after host' },
    { name: 'space in host', url: 'https://a b/', want: 'parse "https://a b/": invalid character " " in host name' },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(parseGoURL(c.url), c.want));
});
