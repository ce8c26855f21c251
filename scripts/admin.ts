// Operator commands, against the configured database (DATABASE_URL, or the PGlite under DATA_DIR).
//   npm run admin -- reset-password <email>                  sets a generated password, printed once
//   npm run admin -- reset-password <email> --password-stdin reads the new password from standard input
// Either way the account's domains' password checks apply, every token of the account is revoked, and the
// change is recorded in the audit trail (action password.reset, actor admin_cli).
import { userInfo } from 'node:os';
import { AuditRepository } from '../src/delivery/audit/audit.repository.js';
import { AuditService } from '../src/delivery/audit/audit.service.js';
import { Clock } from '../src/base/common/clock.js';
import { loadConfig } from '../src/app/config.js';
import { createDataSource, runMigrations } from '../src/base/database/data-source.js';
import { Metrics } from '../src/base/common/metrics/metrics.service.js';
import { MetricsRepository } from '../src/base/common/metrics/metrics.repository.js';
import { AdminResetError, adminResetPassword } from '../src/accounts/passwords/admin-reset.js';
import { PasswordPolicyService } from '../src/accounts/passwords/password-policy.service.js';
import { PasswordsRepository } from '../src/accounts/passwords/passwords.repository.js';
import { TokensRepository } from '../src/credentials/tokens/tokens.repository.js';
import { TokensService } from '../src/credentials/tokens/tokens.service.js';
import { WebhookEventsService } from '../src/delivery/events/webhook-events.service.js';
import { EventsRepository } from '../src/delivery/events/events.repository.js';

const USAGE = 'usage: npm run admin -- reset-password <email> [--password-stdin]';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

const [command, email, ...flags] = process.argv.slice(2);
if (command !== 'reset-password' || !email || flags.some((f) => f !== '--password-stdin')) {
  console.error(USAGE);
  process.exit(2);
}
const given = flags.includes('--password-stdin') ? await readStdin() : null;
const config = loadConfig();
const ds = createDataSource(config);
await ds.initialize();
try {
  await runMigrations(ds);
  const clock = new Clock();
  const events = new WebhookEventsService(clock, new EventsRepository(ds));
  const audit = new AuditService(
    new AuditRepository(ds),
    events,
    clock,
    new Metrics(new MetricsRepository(ds)),
  );
  const tokens = new TokensService(new TokensRepository(ds), clock, events, audit);
  const policy = new PasswordPolicyService(new PasswordsRepository(ds));
  let operator: string | null = null;
  try {
    operator = userInfo().username;
  } catch {
    operator = null;
  }
  const out = await adminResetPassword({ ds, tokens, policy, audit }, email, given, operator);
  console.error(
    `password reset for account ${out.userId}; ${out.revoked} token(s) revoked; recorded in the audit trail`,
  );
  // the generated password alone on stdout, so it can be piped; never logged anywhere else
  if (out.generated) console.log(out.generated);
} catch (err) {
  if (err instanceof AdminResetError) {
    console.error(`reset-password: ${err.message}; nothing was changed`);
    process.exitCode = 1;
  } else throw err;
} finally {
  await ds.destroy();
}
