import { describe, expect, it } from 'vitest';
import { isBlankRichText } from '@pss/contract';
import { sanitizeRichText, stripTags } from './rich-text.js';

describe('sanitizeRichText', () => {
  it('keeps what the editor toolbar makes', () => {
    const html =
      '<h2>Title</h2><p><strong>bold</strong> <b>b</b> <em>em</em> <i>i</i> <u>u</u> <s>s</s> ' +
      'H<sub>2</sub>O x<sup>2</sup> <code>x</code></p><ul><li>one</li></ul><ol><li>two</li></ol>' +
      '<blockquote>quote</blockquote><h3>h3</h3><h4>h4</h4><p>line<br />break</p>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('removes scripts with their content, event handlers and unknown tags', () => {
    const clean = sanitizeRichText(
      '<p>Hi<script>alert(1)</script><img src=x onerror=alert(1)><style>p{}</style>' +
        '<iframe src="https://evil.test"></iframe><span onclick="x()">there</span></p>',
    );
    expect(clean).toBe('<p>Hithere</p>');
  });

  it('drops attributes other than a link’s href', () => {
    expect(sanitizeRichText('<p class="x" style="color:red" onmouseover="x()">text</p>')).toBe('<p>text</p>');
    expect(sanitizeRichText('<strong style="x" data-x="1">b</strong>')).toBe('<strong>b</strong>');
  });

  it('opens links in a new tab without the opener, whatever target or rel they came with', () => {
    expect(sanitizeRichText('<a href="https://example.org/a?b=1&amp;c=2" target="_self" rel="opener">x</a>')).toBe(
      '<a href="https://example.org/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeRichText('<a href="mailto:a@example.org">mail</a>')).toBe(
      '<a href="mailto:a@example.org" target="_blank" rel="noopener noreferrer">mail</a>',
    );
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:msgbox(1)',
    '//evil.test/path',
  ])('removes the href %j and keeps the link text', (href) => {
    const clean = sanitizeRichText(`<a href="${href}">x</a>`);
    expect(clean).toBe('<a target="_blank" rel="noopener noreferrer">x</a>');
  });

  it('keeps text that looks like markup escaped', () => {
    expect(sanitizeRichText('<p>&lt;script&gt;alert(1)&lt;/script&gt; 1 &lt; 2 &amp; 3 &gt; 2</p>')).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; 1 &lt; 2 &amp; 3 &gt; 2</p>',
    );
  });

  it('trims the result and gives empty text for nothing', () => {
    expect(sanitizeRichText('  <p>x</p>\n ')).toBe('<p>x</p>');
    expect(sanitizeRichText('')).toBe('');
    expect(sanitizeRichText('<script>alert(1)</script>')).toBe('');
  });
});

describe('stripTags', () => {
  it('leaves plain text with entities escaped', () => {
    expect(stripTags('<p>Ann <strong>Smith</strong><script>x</script> &amp; co &lt;b&gt;</p>')).toBe(
      'Ann Smith &amp; co &lt;b&gt;',
    );
  });
});

describe('the text rule and the sanitiser (spec §5)', () => {
  // A required rich text the contract lets through must not come out of the sanitiser empty,
  // and one it refuses must not be saved as something: the rule and the sanitiser agree.
  it.each([
    ['<p></p><p> </p>', true],
    ['<p><br></p><p>&nbsp;</p>', true],
    ['<script>alert(1)</script><style>p{}</style>', true],
    ['<img src=x onerror=alert(1)><iframe src="https://evil.test"></iframe>', true],
    ['<!-- note --><p class="x"> </p>', true],
    ['<textarea>t</textarea><option>o</option>', true],
    ['<noscript>kept</noscript>', false],
    ['<p>Hello</p>', false],
    ['<iframe>shown as text</iframe>', false],
    ['<p>&lt;</p>', false],
  ])('%j is blank before and after sanitising: %s', (html, blank) => {
    expect(isBlankRichText(html)).toBe(blank);
    expect(isBlankRichText(sanitizeRichText(html))).toBe(blank);
  });
});
