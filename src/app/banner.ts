import type { AppConfig } from './config.js';

/**
 * The last lines a start prints (plain text on stdout, outside the log): where the service is, its API
 * documentation and browser sign-in, and on the first start the administrator it created, with the
 * generated password, shown this once.
 */
export function startBanner(
  config: AppConfig,
  listening: string,
  firstStart: { email: string; password: string | null } | null,
): string {
  const base = config.http.publicBaseUrl;
  const lines = [
    '',
    `  Portcullis is listening on ${listening}`,
    `  Public URL:   ${base}`,
    `  API docs:     ${base}/API/auth/spec/ui`,
    `  Sign-in:      POST ${base}/API/auth/v1/auth/simple/login/ (browser: ${base}/oauth/authorize/ for OAuth apps)`,
    `  Health:       ${base}/API/auth/readyz`,
  ];
  if (firstStart) {
    lines.push(`  First start: super administrator ${firstStart.email}`);
    lines.push(
      firstStart.password
        ? `  Password:     ${firstStart.password}   (shown once; set BOOTSTRAP_ADMIN_PASSWORD to choose it)`
        : '  Password:     the one in BOOTSTRAP_ADMIN_PASSWORD',
    );
  }
  return `${lines.join('\n')}\n\n`;
}
