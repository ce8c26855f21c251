// Data source for the TypeORM CLI and scripts: the same options the app uses, from the same environment.
import { loadConfig } from './src/config/config.js';
import { createDataSource } from './src/database/data-source.js';

export default createDataSource(loadConfig());
