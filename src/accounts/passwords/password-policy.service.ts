import { Injectable } from '@nestjs/common';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import type { EntityManager } from 'typeorm';
import { PasswordsErrors } from './passwords.errors.js';
import { PasswordsRepository } from './passwords.repository.js';
import { failedRules, normalizeChecks, type PasswordChecks, strictestOf } from './password-checks.js';

/** zxcvbn's scores run 0 (top of the common-password lists) to 4; below this a password is refused. */
export const MIN_STRENGTH_SCORE = 3;
export const TOO_COMMON = 'is too common or too easy to guess';

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * zxcvbn's matchers, imported and built on the first password judged and shared by the process: building its
 * ranked dictionaries takes about 150 ms of CPU and tens of MB, which every start (and every test app) paid
 * before, and its modules alone hold about 3 MB of heap, though a service that only verifies tokens never
 * judges a password. It holds no per-request state.
 */
function strengthEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([{ ZxcvbnFactory }, { adjacencyGraphs, dictionary }]) =>
      new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs, useLevenshteinDistance: true }),
  );
  estimator.catch(() => (estimator = undefined));
  return estimator;
}

/**
 * The one place a new password is judged, wherever it is set (reset, invitation, users create/update): the
 * strictest union of the checks of the domains that apply, the service's floor of 8 characters, and an
 * offline strength estimate (zxcvbn-ts with its common-password and keyboard-pattern dictionaries, about
 * 50 000 leaked passwords and their variants; nothing leaves the process).
 */
@Injectable()
export class PasswordPolicyService {
  constructor(private readonly repo: PasswordsRepository) {}

  /** The strictest union of these domains' stored checks (all null when none sets any). */
  async checksFor(domainIds: string[], em?: EntityManager): Promise<PasswordChecks> {
    if (domainIds.length === 0) return strictestOf([]);
    const stored = await this.repo.storedChecks(domainIds, em);
    return strictestOf(stored.map((c) => normalizeChecks(c)));
  }

  /** The checks for an account: those of every domain it belongs to. */
  async checksForUser(userId: string, em?: EntityManager): Promise<PasswordChecks> {
    return this.checksFor(await this.repo.domainsOf(userId, em), em);
  }

  /**
   * One message per failed rule (empty: the password may be set). `personal`: what the password must not be
   * built from (the email, names), fed to the strength estimate.
   */
  async check(
    domainIds: string[],
    password: string,
    o: { em?: EntityManager; personal?: (string | null | undefined)[] } = {},
  ): Promise<string[]> {
    return this.judge(await this.checksFor(domainIds, o.em), password, o.personal);
  }

  /** The same as `check`, against checks already known. */
  async judge(
    checks: PasswordChecks,
    password: string,
    personal: (string | null | undefined)[] = [],
  ): Promise<string[]> {
    const failed = failedRules(checks, password);
    const inputs = personal.flatMap((p) =>
      p ? [p, ...p.split(/[@.\s_+-]+/).filter((s) => s.length >= 3)] : [],
    );
    if ((await strengthEstimator()).check(password, inputs).score < MIN_STRENGTH_SCORE)
      failed.push(TOO_COMMON);
    return failed;
  }

  /**
   * Throws a 400 `{errors: {[field]: "…; …"}}` naming every failed rule in one message (the error body maps
   * a field to one string), else returns.
   */
  async assert(
    domainIds: string[],
    password: string,
    o: { em?: EntityManager; personal?: (string | null | undefined)[]; field?: string } = {},
  ): Promise<void> {
    PasswordPolicyService.throwIfFailed(await this.check(domainIds, password, o), o.field);
  }

  static throwIfFailed(failed: string[], field = 'password'): void {
    if (failed.length > 0) throw PasswordsErrors.INVALID({ [field]: failed.join('; ') });
  }
}
