import express from 'express';
import { indexRoutes } from './route-index.js';
import { installedVersions, VERIFIED_AGAINST } from './express-rules.js';

describe('the Express the route index was verified against', () => {
  it('is the one installed: an upgrade of express or router fails here until it is re-verified', () => {
    // package.json takes express at a caret range; the lockfile decides what is installed. The route index
    // reads the router's internals (route-index.ts) and in-sequence.ts follows its dispatch rules: after an
    // upgrade, run route-index.spec, in-sequence.spec and test/e2e/route-index.e2e-spec.ts, then update
    // VERIFIED_AGAINST in express-rules.ts.
    expect(installedVersions()).toEqual(VERIFIED_AGAINST);
  });

  it('on a router it was not verified against, the index stands aside and Express routes alone', () => {
    const app = express();
    for (let i = 0; i < 20; i++) app.get(`/API/r${i}/`, (_req, res) => res.end());
    const layers = () => (app.router as unknown as { stack: unknown[] }).stack.length;
    const before = layers();
    expect(indexRoutes(app, false)).toBe(0);
    expect(layers()).toBe(before);
    expect(indexRoutes(app, true)).toBe(20);
    expect(layers()).toBeLessThan(before);
  });
});
