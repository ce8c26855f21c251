// Maintained by scripts/migration-generate.ts: every migration, oldest first.
import { Initial1795262043991 } from './1795262043991-initial.js';

export const MIGRATIONS = [Initial1795262043991];
