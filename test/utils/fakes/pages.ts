/** The HTML page specs' first look at a page: its status and what it says. */

/** That the page answered with this status and its HTML says each of these. */
export function expectPage(page: { status: number; html?: string }, status: number, ...says: string[]): void {
  expect(page.status).toBe(status);
  for (const text of says) expect(page.html).toContain(text);
}

/** A sign-in of user u1 still owing a second factor in the domain: no token yet, the temporary one. */
export const factorOwed = (temp_token: string, system_domain_id = 'd1') => ({
  token: null,
  temp_token,
  user_id: 'u1',
  system_domain_id,
});
