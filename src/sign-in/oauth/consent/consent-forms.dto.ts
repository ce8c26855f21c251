import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';
import type { AuthorizationParams } from '../authorization-request.service.js';

/**
 * One field of a consent page's form: text, or absent. A form field given twice (a list) or in brackets (an
 * object) counts as absent, as the pages always read it (the request's own problems are the page's to tell:
 * "Unknown application", "Invalid or expired code"), so the global ValidationPipe changes no answer; it
 * types the body and drops the fields no form has.
 */
function FormText(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value : undefined)),
    IsOptional(),
    IsString(),
  );
}

/** Every consent form: the authorization request it belongs to (hidden fields) and the CSRF token. */
export class ConsentRequestForm implements AuthorizationParams {
  @FormText() client_id?: string;
  @FormText() redirect_uri?: string;
  @FormText() response_type?: string;
  @FormText() scope?: string;
  @FormText() state?: string;
  @FormText() code_challenge?: string;
  @FormText() code_challenge_method?: string;
  @FormText() nonce?: string;
  @FormText() prompt?: string;
  @FormText() max_age?: string;
  @FormText() login_hint?: string;
  @FormText() csrf?: string;
}

/**
 * POST /oauth/authorize/login: a password; `sso=1` for the single sign-on of the email's domain; `provider_id`
 * for "Continue with" one of the application's domain's OpenID providers; `directory=form` for its directory's
 * password form, `directory=1` for that form's password.
 */
export class ConsentLoginForm extends ConsentRequestForm {
  @FormText() email?: string;
  @FormText() password?: string;
  @FormText() sso?: string;
  @FormText() provider_id?: string;
  @FormText() directory?: string;
}

/** POST /oauth/authorize/mfa: `action=send` mails a code; otherwise the code (`otp`) of `otp_type`. */
export class ConsentSecondFactorForm extends ConsentRequestForm {
  @FormText() action?: string;
  @FormText() otp_type?: string;
  @FormText() otp?: string;
}

/** POST /oauth/authorize/passkey: the AuthenticationResponseJSON of the page's passkey button, as JSON text. */
export class ConsentPasskeyForm extends ConsentRequestForm {
  @FormText() response?: string;
}

/** POST /oauth/authorize/passkey/options: the page's CSRF token (JSON). */
export class ConsentPasskeyOptionsForm {
  @FormText() csrf?: string;
}

/** POST /oauth/authorize: the decision; anything but `allow` denies. */
export class ConsentDecisionForm extends ConsentRequestForm {
  @FormText() decision?: string;
}

/** GET and POST /oauth/logout: the end-session request (RP-Initiated Logout 1.0 §2), and the confirmation. */
export class LogoutForm {
  @FormText() id_token_hint?: string;
  @FormText() post_logout_redirect_uri?: string;
  @FormText() state?: string;
  @FormText() client_id?: string;
  @FormText() ui_locales?: string;
  @FormText() confirm?: string;
  @FormText() csrf?: string;
}
