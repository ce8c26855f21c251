import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccessRepository } from './common/auth/access.repository.js';
import { AccessService } from './common/auth/access.service.js';
import { Clock } from './common/clock.js';
import { InvalidationBus } from './common/cache/invalidation-bus.js';
import { RateLimiter } from './common/rate-limit/rate-limiter.js';
import { ClientRegistry } from './apps/client-registry.js';
import { AuthGuard } from './common/auth/auth.guard.js';
import { JwtStrategy } from './common/auth/jwt.strategy.js';
import { Authenticator } from './common/auth/authenticator.js';
import { TokenVerifier } from './common/auth/token-verifier.js';
import { ApiExceptionFilter } from './common/errors/api-exception.filter.js';
import { APP_CONFIG, type AppConfig } from './config/config.js';
import { dataSourceOptions, runMigrations } from './database/data-source.js';
import { HealthController } from './health/health.controller.js';
import { ServiceIndexController } from './health/service-index.controller.js';
import { StaticAssetsController } from './health/static-assets.controller.js';
import { KeysModule } from './keys/keys.module.js';
import { LoginModule } from './login/login.module.js';
import { SystemDomainsModule } from './system-domains/system-domains.module.js';
import { TokensModule } from './tokens/tokens.module.js';
import { CredentialsModule } from './credentials/credentials.module.js';
import { FEATURE_MODULES } from './feature-modules.js';
import { Metrics } from './metrics/metrics.service.js';

@Global()
@Module({})
class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        PassportModule,
        TypeOrmModule.forRootAsync({
          useFactory: () => dataSourceOptions(config),
          // migrations are applied before anything else touches the database
          dataSourceFactory: async (options) => {
            const ds = await new DataSource(options!).initialize();
            await runMigrations(ds);
            return ds;
          },
        }),
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        AccessRepository,
        AccessService,
        JwtStrategy,
        Authenticator,
        TokenVerifier,
        Clock,
        InvalidationBus,
        ClientRegistry,
        RateLimiter,
        Metrics,
      ],
      exports: [
        APP_CONFIG,
        AccessService,
        Authenticator,
        TokenVerifier,
        Clock,
        InvalidationBus,
        ClientRegistry,
        RateLimiter,
        Metrics,
      ],
    };
  }
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config),
        KeysModule,
        TokensModule,
        CredentialsModule,
        SystemDomainsModule,
        LoginModule,
        ...FEATURE_MODULES,
      ],
      controllers: [HealthController, ServiceIndexController, StaticAssetsController],
      providers: [
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ],
    };
  }
}
