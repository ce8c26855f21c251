import { redactPath, SECRET_PATH_ROUTES } from './secret-paths.js';

const SECRET = 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWpr';

describe('redactPath', () => {
  it.each([
    [`/API/auth/v1/apps/external/auth/${SECRET}/`, '/API/auth/v1/apps/external/auth/[redacted]/'],
    [`/API/auth/v1/apps/external/auth/${SECRET}`, '/API/auth/v1/apps/external/auth/[redacted]'],
    [`/api/AUTH/v1/apps/external/auth/${SECRET}/more/`, '/api/AUTH/v1/apps/external/auth/[redacted]/more/'],
    [`//API/auth//v1/apps/external/auth/${SECRET}`, '/API/auth/v1/apps/external/auth/[redacted]'],
    [`/API/auth/v1/invitation/complete/${SECRET}/`, '/API/auth/v1/invitation/complete/[redacted]/'],
    [`/API/auth/v1/invitation/${SECRET}`, '/API/auth/v1/invitation/[redacted]'],
    [`/API/auth/v1/password/reset/${SECRET}/`, '/API/auth/v1/password/reset/[redacted]/'],
    [`/API/auth/v1/password/${SECRET}/checks/`, '/API/auth/v1/password/[redacted]/checks/'],
    [`/API/auth/v1/registrations/verify/${SECRET}/`, '/API/auth/v1/registrations/verify/[redacted]/'],
  ])('%s → %s', (path, expected) => {
    expect(redactPath(path)).toBe(expected);
    expect(redactPath(path)).not.toContain(SECRET);
  });

  it('leaves other paths alone', () => {
    for (const p of [
      '/API/auth/v1/apps/external/auth/',
      '/API/auth/v1/password/checks/',
      '/API/auth/v1/password/forgot/',
      '/API/auth/v1/apps/',
    ]) {
      expect(redactPath(p)).toBe(p);
    }
  });

  it('covers every listed route', () => {
    for (const route of SECRET_PATH_ROUTES) {
      expect(redactPath(route.replace(':secret', SECRET))).not.toContain(SECRET);
    }
  });
});
