import type { ConfigOf } from '../../base/config/namespace.js';
import { DNS_CONFIG } from './dns-config.js';
import { Resolver } from 'node:dns/promises';
import { Inject, Injectable } from '@nestjs/common';

/** The resolvers could not answer (no answer in time, refused, server failure): not "there is no record". */
export class DnsUnavailableError extends Error {}

/** Answers that mean the name has no TXT record (no such name, or no record of that type). */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * TXT lookups for domain verification, through the resolvers of DNS_SERVERS (the system's when unset). One
 * lookup is bounded by DNS_TIMEOUT_MS in all, whatever the resolvers do: c-ares doubles its timeout on each
 * retry, so two tries get a third of the budget to start with, and a deadline cancels whatever is left.
 */
@Injectable()
export class DnsTxt {
  constructor(@Inject(DNS_CONFIG.token) private readonly dnsConfig: ConfigOf<typeof DNS_CONFIG>) {}

  /** The TXT records of `name`, each one string (its character-strings joined); [] when it has none. */
  async lookup(name: string): Promise<string[]> {
    const { servers, timeoutMs } = this.dnsConfig;
    const resolver = new Resolver({ timeout: Math.max(50, Math.floor(timeoutMs / 3)), tries: 2 });
    if (servers) resolver.setServers(servers);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        resolver.cancel();
        reject(new DnsUnavailableError(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const records = await Promise.race([resolver.resolveTxt(name), deadline]);
      return records.map((chunks) => chunks.join(''));
    } catch (e) {
      if (e instanceof DnsUnavailableError) throw e;
      const code = (e as NodeJS.ErrnoException).code ?? 'unknown';
      if (NO_RECORD.has(code)) return [];
      throw new DnsUnavailableError(`the resolvers failed (${code})`);
    } finally {
      clearTimeout(timer);
    }
  }
}
