import { passkeyScriptTags } from '../../src/base/common/html/page-scripts.js';

/**
 * A page's HTML without the service's own scripts (the passkey pages load them by name from the static
 * assets: src/base/common/html/page-scripts.ts), so a test can check that nothing else there runs.
 */
export function withoutOwnScripts(html: string): string {
  return passkeyScriptTags().reduce(
    (rest, src) => rest.split(`<script src="${src}"></script>`).join(''),
    html,
  );
}
