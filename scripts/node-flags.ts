/**
 * The flags of the `node … dist/src/main.js` command in a package.json script (e.g. start:prod): read by the
 * benchmark (bench/servers.ts), the production boot check (scripts/ci-production-boot.sh) and
 * test/utils/node-flags.spec.ts, which holds the Dockerfile's CMD to them.
 */
export function serviceNodeFlags(script: string): string[] {
  const words = script.trim().split(/\s+/);
  const node = words.indexOf('node');
  const main = words.indexOf('dist/src/main.js');
  if (node < 0 || main < node) throw new Error(`not a node … dist/src/main.js command: ${script}`);
  return words.slice(node + 1, main);
}
