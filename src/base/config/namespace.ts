import type { FactoryProvider } from '@nestjs/common';
import { APP_CONFIG, type BaseConfig } from './config.js';

/**
 * A feature's own settings: its key in the loaded configuration, its injection token, and the loader that reads
 * its variables. A feature declares its namespace beside its code (x-config.ts), registers it in its module
 * (`provideConfig(X_CONFIG)`) and injects only that (`@Inject(X_CONFIG.token)`), plus the base settings
 * (APP_CONFIG, typed BaseConfig: address, database, tokens' lifetimes) where it needs them. The app lists every
 * namespace (src/app/config.ts), so a start reads and checks all variables at once and names every bad one.
 */
export interface ConfigNamespace<K extends string = string, T = unknown> {
  readonly key: K;
  readonly token: symbol;
  /** Reads the namespace's variables; a bad one is pushed onto `problems`, never thrown. */
  readonly load: (env: NodeJS.ProcessEnv, problems: string[], base: BaseConfig) => T;
}

export function configNamespace<K extends string, T>(
  key: K,
  load: (env: NodeJS.ProcessEnv, problems: string[], base: BaseConfig) => T,
): ConfigNamespace<K, T> {
  return { key, token: Symbol(`config:${key}`), load };
}

/** The settings of one namespace (the type a feature injects). */
export type ConfigOf<N> = N extends ConfigNamespace<string, infer T> ? T : never;

/** The provider a feature module registers for its namespace: its part of the configuration the app loaded. */
export function provideConfig(ns: ConfigNamespace): FactoryProvider {
  return {
    provide: ns.token,
    useFactory: (config: BaseConfig & Record<string, unknown>) => config[ns.key],
    inject: [APP_CONFIG],
  };
}
