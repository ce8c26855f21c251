import 'reflect-metadata';
import express, { type NextFunction, type Request, type Response } from 'express';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module.js';
import { createLogger, PinoNestLogger, requestLogger } from '../base/common/http/request-logging.js';
import { globalPipes } from '../base/common/validation/global-pipes.js';
import type { AppConfig } from './config.js';
import { buildOpenApiDocument } from './openapi.js';
import { RateLimiter } from '../base/common/rate-limit/rate-limiter.js';
import { rateLimited } from '../base/common/rate-limit/rate-limit.errors.js';
import { keepBodyStream } from '../platform/files/keep-body-stream.js';
import { UPLOAD_PATH } from '../platform/files/file-links.js';
import { Metrics } from '../base/common/metrics/metrics.service.js';
import { httpMetrics } from '../delivery/metrics/http-metrics.js';
import { indexRoutes } from '../base/common/http/route-index.js';
import { CorsPreflightMiddleware } from '../base/common/http/cors.js';
import { inSequence, underPath } from '../base/common/http/in-sequence.js';

export interface CreateAppOptions {
  /** Log level override (tests run silent). */
  logLevel?: string;
}

/** Builds the configured application: used by main, the tests, the OpenAPI script and the benchmark. */
export async function createApp(
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<NestExpressApplication> {
  const format = config.log.format ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const logger = createLogger(options.logLevel ?? config.log.level, format);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    logger: new PinoNestLogger(logger),
    bufferLogs: false,
    // the body parsers are mounted below, with the rest of what every request passes through
    bodyParser: false,
  });
  app.set('trust proxy', config.http.trustProxy);
  app.disable('x-powered-by');
  // no ETag (a hash of every response body): API responses are per-caller and mostly no-store, and no
  // client of this API sends If-None-Match
  app.set('etag', false);
  const cors = app.get(CorsPreflightMiddleware);
  // what every request passes through, as one Express layer (in-sequence.ts: a layer each cost the router's
  // bookkeeping per request): the request id and access log; CORS preflights, answered here (a plain
  // middleware: through Nest's MiddlewareConsumer, `forRoutes('*')`, each request paid a wildcard path match
  // and Nest's middleware wrapper); the body parsers (100 kB), which the resumable upload's body must not
  // reach (it is streamed to the storage); errors reach Nest's exception filters through Express
  app.use(
    inSequence(
      requestLogger(logger, httpMetrics(app.get(Metrics))),
      (req, res, next) => cors.use(req, res, next),
      underPath(UPLOAD_PATH, keepBodyStream),
      express.urlencoded({ extended: false }),
      // SCIM clients send application/scim+json (RFC 7644 §3.1)
      express.json({ type: ['application/json', 'application/scim+json'] }),
    ),
  );
  app.useGlobalPipes(...globalPipes());
  mountOpenApi(app);
  await app.init();
  // every route is registered now: Express tries them one by one, the index only those a path can match
  indexRoutes(app.getHttpAdapter().getInstance());
  return app;
}

function mountOpenApi(app: NestExpressApplication): void {
  const document = () => buildOpenApiDocument(app);
  // the documents are served by Express directly, past the guard: they are charged to the address here
  const limiter = app.get(RateLimiter);
  app.use('/API/auth/spec', (req: Request, res: Response, next: NextFunction) => {
    limiter.consume('anonymous', limiter.addressKey(req), res).then((d) => {
      if (d.allowed) return next();
      const err = rateLimited(d.retryAfter);
      res.status(429).set(err.headers).json({ errors: err.errors });
    }, next);
  });
  SwaggerModule.setup('API/auth/spec/ui', app, document, {
    jsonDocumentUrl: 'API/auth/spec',
    yamlDocumentUrl: 'API/auth/spec/yaml',
    ui: true,
  });
}
