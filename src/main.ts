import type { AddressInfo } from 'node:net';
import { createApp } from './app/app.factory.js';
import { startBanner } from './app/banner.js';
import { ConfigError } from './base/config/config.js';
import { loadConfig } from './app/config.js';
import { BootstrapService } from './accounts/system-domains/bootstrap.service.js';
import { stopGracefully } from './app/shutdown.js';
import { Logger } from '@nestjs/common';

try {
  const config = loadConfig();
  const app = await createApp(config);
  await app.listen(config.http.port, config.http.host);
  stopGracefully(app, config.http.shutdownGraceMs, new Logger('Shutdown'));
  const address = app.getHttpServer().address() as AddressInfo;
  // the banner ends the start: nothing is logged after it until the first request (at the default level)
  process.stdout.write(
    startBanner(config, `http://${config.http.host}:${address.port}`, app.get(BootstrapService).firstStart),
  );
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(78); // EX_CONFIG
  }
  throw err;
}
