import { highlightHtml, START, STOP } from './highlight.js';

describe('highlightHtml', () => {
  it('wraps the matches in <em> and escapes everything the text holds', () => {
    expect(highlightHtml(`<b onclick="x">${START}storm${STOP} & 'sea'</b>`)).toBe(
      '&lt;b onclick=&quot;x&quot;&gt;<em>storm</em> &amp; &#39;sea&#39;&lt;/b&gt;',
    );
  });

  it('leaves text without matches escaped and unmarked', () => {
    expect(highlightHtml('a < b')).toBe('a &lt; b');
  });
});
