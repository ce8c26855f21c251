import { ACR_VALUES, AMR_VALUES, ASSURANCE_LEVELS, assuranceOf } from './assurance.js';

describe('assuranceOf (a session’s acr and amr)', () => {
  it('a password alone: the password level, pwd', () => {
    expect(assuranceOf({ is_mfa_authenticated: false, vouched_by_tenant: false })).toEqual({
      acr: ASSURANCE_LEVELS.password,
      amr: ['pwd'],
    });
  });

  it('a password and a second factor: the mfa level, pwd otp mfa', () => {
    expect(assuranceOf({ is_mfa_authenticated: true, vouched_by_tenant: false })).toEqual({
      acr: ASSURANCE_LEVELS.mfa,
      amr: ['pwd', 'otp', 'mfa'],
    });
  });

  it('a tenant vouched: the federated level, sso, whatever the factor mark says', () => {
    for (const mfa of [false, true]) {
      expect(assuranceOf({ is_mfa_authenticated: mfa, vouched_by_tenant: true })).toEqual({
        acr: ASSURANCE_LEVELS.federated,
        amr: ['sso'],
      });
    }
  });

  it('a passkey: the methods the authority recorded, at the level of the factor mark', () => {
    const alone = { is_mfa_authenticated: true, vouched_by_tenant: false, amr: ['hwk', 'user', 'mfa'] };
    expect(assuranceOf(alone)).toEqual({ acr: ASSURANCE_LEVELS.mfa, amr: ['hwk', 'user', 'mfa'] });
    const second = { is_mfa_authenticated: true, vouched_by_tenant: false, amr: ['pwd', 'swk', 'mfa'] };
    expect(assuranceOf(second)).toEqual({ acr: ASSURANCE_LEVELS.mfa, amr: ['pwd', 'swk', 'mfa'] });
    // recorded methods never lift the level, nor a tenant's mark
    expect(assuranceOf({ ...alone, is_mfa_authenticated: false }).acr).toBe(ASSURANCE_LEVELS.password);
    expect(assuranceOf({ ...alone, vouched_by_tenant: true })).toEqual({
      acr: ASSURANCE_LEVELS.federated,
      amr: ['sso'],
    });
    // none recorded (an older record, every other sign-in): read from the marks
    expect(assuranceOf({ ...alone, amr: null }).amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(assuranceOf({ ...alone, amr: [] }).amr).toEqual(['pwd', 'otp', 'mfa']);
    for (const m of [...alone.amr, ...second.amr]) expect(AMR_VALUES).toContain(m);
  });

  it('reports only the advertised values', () => {
    for (const mfa of [false, true])
      for (const vouched of [false, true]) {
        const { acr, amr } = assuranceOf({ is_mfa_authenticated: mfa, vouched_by_tenant: vouched });
        expect(ACR_VALUES).toContain(acr);
        for (const m of amr) expect(AMR_VALUES).toContain(m);
      }
    expect(new Set(ACR_VALUES).size).toBe(3);
  });

  it('hands out a fresh amr list each time (a caller changing one does not change the next)', () => {
    const a = assuranceOf({ is_mfa_authenticated: false, vouched_by_tenant: false });
    a.amr.push('x');
    expect(assuranceOf({ is_mfa_authenticated: false, vouched_by_tenant: false }).amr).toEqual(['pwd']);
  });
});
