import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';
import { MetricsServer } from './metrics-server.js';

/** Prometheus metrics (the `Metrics` registry itself is in the core module: the guard and limiter count). */
@Module({
  controllers: [MetricsController],
  providers: [MetricsServer],
})
export class MetricsModule {}
