import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccessRepository } from '../base/common/auth/access.repository.js';
import { AccessService } from '../base/common/auth/access.service.js';
import { Clock } from '../base/common/clock.js';
import { InvalidationBus } from '../base/common/cache/invalidation-bus.js';
import { RateLimiter } from '../base/common/rate-limit/rate-limiter.js';
import { ClientRegistry } from '../credentials/apps/client-registry.js';
import { AppsRepository } from '../credentials/apps/apps.repository.js';
import { CorsRepository } from '../base/common/http/cors.repository.js';
import { MetricsRepository } from '../base/common/metrics/metrics.repository.js';
import { AuthGuard } from '../auth/auth.guard.js';
import { JwtStrategy } from '../auth/jwt.strategy.js';
import { Authenticator } from '../auth/authenticator.js';
import { TokenVerifier } from '../auth/token-verifier.js';
import { ApiExceptionFilter } from '../base/common/filters/api-exception.filter.js';
import { APP_CONFIG } from '../base/config/config.js';
import { type AppConfig } from './config.js';
import { dataSourceOptions, runMigrations } from '../base/database/data-source.js';
import { HealthController } from './health.controller.js';
import { HealthRepository } from './health.repository.js';
import { HealthService } from './health.service.js';
import { ServiceIndexController } from './service-index.controller.js';
import { StaticAssetsController } from './static-assets.controller.js';
import { KeysModule } from '../base/keys/keys.module.js';
import { LoginModule } from '../sign-in/login/login.module.js';
import { SystemDomainsModule } from '../accounts/system-domains/system-domains.module.js';
import { TokensModule } from '../credentials/tokens/tokens.module.js';
import { TokensApiModule } from '../credentials/token-api/tokens-api.module.js';
import { CredentialsModule } from '../credentials/mint/credentials.module.js';
import { FEATURE_MODULES } from './feature-modules.js';
import { Metrics } from '../base/common/metrics/metrics.service.js';

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
        AppsRepository,
        ClientRegistry,
        RateLimiter,
        MetricsRepository,
        Metrics,
        // for the CORS preflight, which OAuthModule provides
        CorsRepository,
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
        CorsRepository,
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
        // the tokens API's routes where TokensModule's were, before the sign-in routes under /v1/auth/
        TokensApiModule,
        CredentialsModule,
        SystemDomainsModule,
        LoginModule,
        ...FEATURE_MODULES,
      ],
      controllers: [HealthController, ServiceIndexController, StaticAssetsController],
      providers: [
        HealthService,
        HealthRepository,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ],
    };
  }
}
