import { envReader } from '../../base/config/env-reader.js';
import { configNamespace } from '../../base/config/namespace.js';

/** Passkeys (docs/passkeys.md): the relying party the service is to every authenticator. */
export interface PasskeysConfig {
  /**
   * The RP ID (`WEBAUTHN_RP_ID`): the domain passkeys are bound to, the host of `PUBLIC_BASE_URL` unless set
   * (it may be a registrable parent of that host, e.g. `example.com` for `auth.example.com`, so passkeys
   * outlive a move between subdomains). Changing it orphans every passkey made under the old one.
   */
  rpId: string;
  /** The name authenticators show (`WEBAUTHN_RP_NAME`, default Portcullis). */
  rpName: string;
  /**
   * The origins an assertion may come from: the service's public origin, plus `WEBAUTHN_ORIGINS` (a comma
   * list: other web origins under the RP ID, or an Android app's `android:apk-key-hash:…`).
   */
  origins: string[];
}

export const PASSKEYS_CONFIG = configNamespace('passkeys', (env, problems, base): PasskeysConfig => {
  const { str } = envReader(env, problems);
  // a bad PUBLIC_BASE_URL is the base settings' problem (already named): nothing more to say here
  const publicOrigin = URL.canParse(base.http.publicBaseUrl)
    ? new URL(base.http.publicBaseUrl)
    : new URL('http://localhost');
  const host = publicOrigin.hostname;
  const rpId = (str('WEBAUTHN_RP_ID') ?? host).toLowerCase();
  if (rpId !== host && !host.endsWith(`.${rpId}`))
    problems.push(`WEBAUTHN_RP_ID must be the host of PUBLIC_BASE_URL (${host}) or a parent domain of it`);
  // a bare top-level domain (com) is no RP ID browsers accept: they refuse every ceremony under it
  else if (!rpId.includes('.') && rpId !== 'localhost' && rpId !== host)
    problems.push('WEBAUTHN_RP_ID must be a registrable domain (example.com), not a top-level domain');
  const extra = (str('WEBAUTHN_ORIGINS') ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const o of extra) {
    if (o.startsWith('android:apk-key-hash:')) continue;
    let u: URL | null = null;
    try {
      u = new URL(o);
    } catch {
      /* reported below */
    }
    if (!u || !['http:', 'https:'].includes(u.protocol) || u.origin !== o)
      problems.push(`WEBAUTHN_ORIGINS: "${o}" is not an origin (scheme://host[:port], nothing after)`);
  }
  return {
    rpId,
    rpName: str('WEBAUTHN_RP_NAME') ?? 'Portcullis',
    origins: [...new Set([publicOrigin.origin, ...extra])],
  };
});
