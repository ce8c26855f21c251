import { provideConfig } from '../../base/config/namespace.js';
import { METRICS_CONFIG } from './metrics-config.js';
import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';
import { MetricsServer } from './metrics-server.js';

/** Prometheus metrics (the `Metrics` registry itself is in the core module: the guard and limiter count). */
@Module({
  controllers: [MetricsController],
  providers: [provideConfig(METRICS_CONFIG), MetricsServer],
})
export class MetricsModule {}
