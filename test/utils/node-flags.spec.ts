// The service's Node flags (heap sizing, docs/performance.md) are set in one place per way of starting it:
// `npm start`, `npm run start:prod` and the image's CMD must agree, and the benchmark runs the service with
// start:prod's (bench/servers.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { serviceNodeFlags } from '../../scripts/node-flags.js';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };

describe('service Node flags', () => {
  const flags = serviceNodeFlags(pkg.scripts['start:prod']);

  it('start:prod sets the heap flags', () => {
    expect(flags).toEqual(['--max-semi-space-size=16', '--heap-growing-percent=50']);
  });

  it('npm start and the Dockerfile CMD run node with the same flags', () => {
    expect(serviceNodeFlags(pkg.scripts.start.split('&&').pop()!)).toEqual(flags);
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync('Dockerfile', 'utf8'));
    const argv = JSON.parse(cmd![1]) as string[];
    expect(argv[0]).toBe('node');
    expect(argv.at(-1)).toBe('dist/src/main.js');
    expect(argv.slice(1, -1)).toEqual(flags);
  });
});
