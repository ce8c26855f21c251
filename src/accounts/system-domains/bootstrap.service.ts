import type { ConfigOf } from '../../base/config/namespace.js';
import { BOOTSTRAP_CONFIG } from './system-domains-config.js';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../base/common/crypto/passwords.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import { SigningKeysService } from '../../base/keys/signing-keys.service.js';
import { SystemDomainsRepository } from './system-domains.repository.js';
import { SystemDomainsService } from './system-domains.service.js';

/**
 * First start: loads signing keys, and when no user exists creates the first system domain and a super
 * administrator. Two instances starting together: the unique email makes the second one's insert fail
 * and roll back, and it goes on with the first one's data.
 */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');
  /** Set when this start created the first administrator: the banner (main.ts) shows it, once. */
  firstStart: { email: string; password: string | null } | null = null;

  constructor(
    private readonly repo: SystemDomainsRepository,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    @Inject(BOOTSTRAP_CONFIG.token) private readonly bootstrapConfig: ConfigOf<typeof BOOTSTRAP_CONFIG>,
    private readonly keys: SigningKeysService,
    private readonly domains: SystemDomainsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.keys.init();
    if (await this.repo.anyUser()) return;
    const generated = this.bootstrapConfig.adminPassword === null;
    const password = this.bootstrapConfig.adminPassword ?? randomBytes(15).toString('base64url');
    const passwordHash = await hashPassword(password);
    try {
      await this.repo.transaction(async (em) => {
        const domain = await this.domains.create(em, {
          name: 'Default',
          base_url: this.config.http.publicBaseUrl,
          type: 'INTERNAL',
        });
        domain.creating_user_id = await this.repo.insertAdmin(em, {
          email: this.bootstrapConfig.adminEmail,
          first_name: 'Super',
          last_name: 'Administrator',
          password_hash: passwordHash,
          is_super_admin: true,
          system_domain_id: domain.id,
        });
        await this.repo.saveDomain(em, domain);
      });
    } catch (err) {
      if (isUniqueViolation(err)) return; // another instance bootstrapped first
      throw err;
    }
    this.logger.log(
      `Created the first system domain and super administrator ${this.bootstrapConfig.adminEmail}`,
    );
    // never logged: the banner prints a generated password once, on the terminal of whoever started the service
    this.firstStart = { email: this.bootstrapConfig.adminEmail, password: generated ? password : null };
  }
}
