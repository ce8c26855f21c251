import { Logger } from '@nestjs/common';
import { PollingLoop } from './polling-loop.js';

describe('PollingLoop.afterRounds', () => {
  const logger = new Logger('spec');

  it('resolves once n more rounds have completed, the first one at once', async () => {
    let rounds = 0;
    const loop = new PollingLoop('spec loop', 60_000, async () => (rounds++, false), logger);
    loop.start();
    await loop.afterRounds(1);
    const before = rounds;
    // an interval of a minute: only the nudge and the rounds it asks for can complete them
    await loop.afterRounds(1);
    expect(rounds).toBe(before + 1);
    await loop.stop();
  });

  it('counts a failed round as a round', async () => {
    const loop = new PollingLoop('spec loop', 5, async () => Promise.reject(new Error('away')), {
      warn: () => undefined,
    } as unknown as Logger);
    loop.start();
    await expect(loop.afterRounds(2)).resolves.toBeUndefined();
    await loop.stop();
  });

  it('refuses a loop that is not running, and rejects the waits a stop cuts short', async () => {
    const loop = new PollingLoop('spec loop', 60_000, async () => false, logger);
    await expect(loop.afterRounds(1)).rejects.toThrow('not running');
    loop.start();
    await loop.afterRounds(1);
    const pending = loop.afterRounds(5);
    await loop.stop();
    await expect(pending).rejects.toThrow('stopped');
    expect(loop.isRunning).toBe(false);
  });
});
