/**
 * The one rule for email addresses, applied by EmailField (users, invitations, registration, sign-in,
 * password reset, email login, onboarding) and by the services that look an address up: one address, one
 * spelling. NFKC folds compatibility forms (fullwidth `ａｄｍｉｎ`, ligatures, `＠`) into the plain ones, then
 * lower case as always. What NFKC cannot fold and only serves to make two addresses look alike is refused.
 */
const EDGE_SPACE = /^\p{White_Space}+|\p{White_Space}+$/gu;

export function normalizeEmail(value: string): string {
  // not String.trim(): that also drops U+FEFF, which must be refused, not silently taken away
  return value.normalize('NFKC').replace(EDGE_SPACE, '').toLowerCase();
}

// Default_Ignorable_Code_Point covers the soft hyphen, zero-width characters (U+200B–U+200D), word joiner
// and invisible operators (U+2060–U+2064), U+FEFF, U+180E and the variation selectors; Bidi_Control the
// direction marks, embeddings, overrides and isolates (U+200E/F, U+061C, U+202A–U+202E, U+2066–U+2069).
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u;
const LATIN = /\p{Script=Latin}/u;
const LOOK_ALIKE_SCRIPTS = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;

/**
 * Text shown to people that must read as what it is: refused when it holds a character that is invisible or
 * reorders what follows (`ok\u202Egnp.exe` shows as `okexe.png`). The rule of email addresses, also applied to
 * file names and directories (files/file-names.ts).
 */
export function invisibleProblem(text: string): string | null {
  return INVISIBLE.test(text) ? 'must not contain invisible or text-direction control characters' : null;
}

/** Why an (already normalised) address is refused, or null. */
export function emailProblem(email: string): string | null {
  const invisible = invisibleProblem(email);
  if (invisible) return invisible;
  const at = email.lastIndexOf('@');
  const parts = at < 0 ? [email] : [email.slice(0, at), ...email.slice(at + 1).split('.')];
  if (parts.some((p) => LATIN.test(p) && LOOK_ALIKE_SCRIPTS.test(p))) {
    return 'must not mix Latin with Cyrillic or Greek letters in one part (look-alike characters)';
  }
  return null;
}
