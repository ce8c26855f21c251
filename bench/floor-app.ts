// The framework floor (issue 23, item 2): a bare NestJS-on-Express application with one route, the same
// answer as the service's livez, built from the same Nest and Express packages and run in the same process
// as the service under test (same Node flags and settings). `livez_vs_floor` is what the service's layers
// (middleware, the guard's public path with its rate-limit charge, pipes, filters, the access log) cost on
// the cheapest route.
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';

@Controller('API/auth')
class FloorController {
  @Get('livez')
  getLiveness(): { status: string } {
    return { status: 'ok' };
  }
}

@Module({ controllers: [FloorController] })
class FloorModule {}

/** Starts the floor app on a free loopback port; the same Express settings as createApp's. */
export async function startFloor(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = await NestFactory.create<NestExpressApplication>(FloorModule, { logger: false });
  app.disable('x-powered-by');
  app.set('etag', false);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/API/auth/livez/`, close: () => app.close() };
}
