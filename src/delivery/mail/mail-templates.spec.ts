import { linkMail } from './mail-templates.js';

describe('linkMail', () => {
  const m = linkMail({
    intro: ['<script>alert(1)</script> "Acme" & Sons invited you.'],
    action: 'Accept <now>',
    link: 'https://auth.example/invitation/abc?x="y"&z=<1>',
    outro: ["It's valid once."],
  });

  it('keeps the plain-text part as written, with the link on its own line', () => {
    expect(m.body).toBe(
      [
        '<script>alert(1)</script> "Acme" & Sons invited you.',
        '',
        'Accept <now>: https://auth.example/invitation/abc?x="y"&z=<1>',
        '',
        "It's valid once.",
      ].join('\n'),
    );
  });

  it('escapes every value in the HTML part, the link in its attribute too', () => {
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt; &quot;Acme&quot; &amp; Sons invited you.',
    );
    expect(m.html).toContain('href="https://auth.example/invitation/abc?x=&quot;y&quot;&amp;z=&lt;1&gt;"');
    expect(m.html).toContain('Accept &lt;now&gt;');
    expect(m.html).toContain('It&#39;s valid once.');
  });

  it('refuses a link that is not an absolute http(s) URL', () => {
    for (const link of ['javascript:alert(1)', '/relative', 'data:text/html,x']) {
      expect(() => linkMail({ intro: [], action: 'a', link, outro: [] })).toThrow();
    }
  });
});
