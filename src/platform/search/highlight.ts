/** Markers ts_headline puts around matches; the text is escaped first, then they become <em> and </em>. */
export const START = '\u0001';
export const STOP = '\u0002';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * A fragment safe to render as HTML: everything the asset's text holds is escaped (a title may be
 * `<script>`), and only the matches are wrapped in `<em>`.
 */
export function highlightHtml(fragment: string): string {
  return fragment
    .replace(/[&<>"']/g, (c) => ESCAPES[c])
    .replaceAll(START, '<em>')
    .replaceAll(STOP, '</em>');
}
