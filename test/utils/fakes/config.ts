/** The configuration specs' refusal: what loadConfig names when it stops the start. */
import { loadConfig } from '../../../src/app/config.js';
import { ConfigError } from '../../../src/base/config/config.js';
import { thrown } from '../fakes.js';

/**
 * The problems loadConfig names for these variables: a test fails when they load, or when loadConfig fails
 * otherwise than with a ConfigError.
 */
export function configProblems(env: NodeJS.ProcessEnv): string[] {
  const e = thrown(() => loadConfig(env));
  expect(e).toBeInstanceOf(ConfigError);
  return (e as ConfigError).problems;
}

/** That loadConfig refuses these variables with a ConfigError whose problems name each of `named`. */
export function expectConfigRefused(env: NodeJS.ProcessEnv, ...named: string[]): void {
  const problems = configProblems(env).join('\n');
  for (const name of named) expect(problems).toContain(name);
}
