// npm run dev: the compiler in watch mode and the service restarted whenever its output changes.
// tsc --watch rebuilds dist/ on every saved change (incremental); node --watch restarts main.js when a file
// it loaded changes. Ctrl-C (or SIGTERM) stops both.
import { spawn } from 'node:child_process';

const tsc = spawn(
  process.execPath,
  ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'],
  { stdio: ['ignore', 'inherit', 'inherit'] },
);
const app = spawn(process.execPath, ['--watch', '--watch-preserve-output', 'dist/src/main.js'], {
  stdio: 'inherit',
});
const children = [tsc, app];
let stopping = false;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const c of children)
  c.on('exit', (code) => {
    stop('SIGTERM');
    if (children.every((x) => x.exitCode !== null || x.signalCode !== null)) process.exit(code ?? 0);
  });
