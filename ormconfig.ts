// Data source for the TypeORM CLI and scripts: the same options the app uses, from the same environment.
import { loadConfig } from './src/app/config.js';
import { createDataSource } from './src/base/database/data-source.js';

export default createDataSource(loadConfig());
