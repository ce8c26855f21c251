import { Injectable } from '@nestjs/common';
import { ApiError } from '../../base/common/errors/api-error.js';
import { MARKETPLACE_TOKEN_MAX, type MarketplaceSignupResultDto } from './dto/marketplace.dto.js';
import { MarketplaceErrors } from './marketplace.errors.js';
import { MarketplaceService } from './marketplace.service.js';
import { MarketplaceTokenVerifier } from './marketplace-token-verifier.js';

const TOKEN_FIELD = /^x-([a-z0-9_]{1,64})-marketplace-token$/;
const CLOUD_NAME = /^[a-z0-9_]{1,64}$/;

/** What the registration page is told when the form's token was refused (`?marketplace_error=`). */
const FORM_ERRORS: Record<string, string> = {
  'marketplace.TOKEN_INVALID': 'invalid_token',
  'marketplace.TOKEN_REPLAYED': 'token_replayed',
  'marketplace.TOKEN_MISSING': 'token_missing',
};

/**
 * The two signup surfaces: the JSON MarketplaceSignup (the field name names the cloud) and the buyer's
 * browser form per cloud, which always lands on the registration page (a redirect with the nonce, or with
 * `marketplace_error`), except for a cloud that is not configured (404: the path names nothing).
 */
@Injectable()
export class MarketplaceSignupFlow {
  constructor(
    private readonly marketplace: MarketplaceService,
    private readonly verifier: MarketplaceTokenVerifier,
  ) {}

  signup(body: unknown): Promise<MarketplaceSignupResultDto> {
    const fields = Object.entries(isRecord(body) ? body : {}).flatMap(([name, value]) => {
      const m = TOKEN_FIELD.exec(name.toLowerCase());
      return m ? [{ cloud: m[1], value }] : [];
    });
    if (fields.length !== 1) throw MarketplaceErrors.TOKEN_MISSING();
    const [{ cloud, value }] = fields;
    this.verifier.cloudConfig(cloud);
    return this.marketplace.signup(cloud, tokenValue(value));
  }

  /**
   * The form post: a browser (anything but an explicit `Accept: application/json`) gets `{url}` to redirect
   * to, errors included; a client asking for JSON gets the MarketplaceSignup answer (`{result}`) or the 400.
   */
  async formSignup(
    cloud: string,
    body: unknown,
    json: boolean,
  ): Promise<{ url: string; result?: undefined } | { result: MarketplaceSignupResultDto; url?: undefined }> {
    if (!CLOUD_NAME.test(cloud) || !this.verifier.isConfigured(cloud)) {
      throw MarketplaceErrors.UNKNOWN_CLOUD(cloud.slice(0, 64));
    }
    try {
      const fields = isRecord(body) ? body : {};
      const named = Object.hasOwn(fields, `x-${cloud}-marketplace-token`)
        ? fields[`x-${cloud}-marketplace-token`]
        : Object.hasOwn(fields, 'token')
          ? fields.token
          : undefined;
      if (named === undefined) throw MarketplaceErrors.TOKEN_MISSING();
      const result = await this.marketplace.signup(cloud, tokenValue(named));
      return json ? { result } : { url: result.registration_url };
    } catch (e) {
      if (json) throw e;
      const code = e instanceof ApiError ? FORM_ERRORS[e.code ?? ''] : undefined;
      if (code === undefined) throw e;
      return { url: this.marketplace.registrationUrl(null, code) };
    }
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The token: one string of sane size (a repeated form field arrives as an array). */
function tokenValue(v: unknown): string {
  if (typeof v !== 'string' || v.length === 0) throw MarketplaceErrors.TOKEN_MISSING();
  if (v.length > MARKETPLACE_TOKEN_MAX) throw MarketplaceErrors.TOKEN_INVALID();
  return v.trim();
}
