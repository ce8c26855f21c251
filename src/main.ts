import { createApp } from './app.factory.js';
import { ConfigError, loadConfig } from './config/config.js';

try {
  const config = loadConfig();
  const app = await createApp(config);
  await app.listen(config.http.port, config.http.host);
  console.log(
    `Portcullis listening on http://${config.http.host}:${config.http.port} (public ${config.http.publicBaseUrl})`,
  );
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(78); // EX_CONFIG
  }
  throw err;
}
