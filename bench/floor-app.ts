// The framework floor (issue 23, item 2): a bare NestJS-on-Express application with one route, the same
// answer as the service's livez, built from the same Nest and Express packages and run the way the service
// under test is run (its own process, same Node flags and settings: bench/server-process.ts).
// `livez_vs_floor` is what the service's layers (middleware, the guard's public path with its rate-limit
// charge, pipes, filters, the access log) cost on the cheapest route.
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';

@Controller('API/auth')
class FloorController {
  @Get('livez')
  getLiveness(): { status: string } {
    return { status: 'ok' };
  }
}

@Module({ controllers: [FloorController] })
class FloorModule {}

/** The floor app, not yet listening; the same Express settings as createApp's. */
export async function createFloorApp(): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(FloorModule, { logger: false });
  app.disable('x-powered-by');
  app.set('etag', false);
  return app;
}
