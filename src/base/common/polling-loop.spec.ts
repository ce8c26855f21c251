import { Logger } from '@nestjs/common';
import { PollingLoop, PollingWorker } from './polling-loop.js';

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

describe('PollingWorker', () => {
  class Counting extends PollingWorker {
    rounds = 0;
    release: (() => void) | null = null;
    constructor() {
      super('spec worker', 60_000, new Logger('spec'));
    }
    protected async round(): Promise<boolean> {
      this.rounds++;
      await new Promise<void>((resolve) => (this.release = resolve));
      return false;
    }
  }

  it('runs no round before the bootstrap, and waits for the round in flight at shutdown', async () => {
    const w = new Counting();
    await expect(w.afterRounds(1)).rejects.toThrow('not running');
    expect(w.rounds).toBe(0);
    w.onApplicationBootstrap();
    // the stop below comes before the round completes: the wait is cut short
    const done = expect(w.afterRounds(1)).rejects.toThrow('spec worker stopped');
    await new Promise((r) => setTimeout(r, 0));
    expect(w.rounds).toBe(1);
    let stopped = false;
    const stopping = w.beforeApplicationShutdown().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 0));
    expect(stopped).toBe(false); // the round is still running
    w.release!();
    await stopping;
    await done;
    expect(stopped).toBe(true);
    w.nudge(); // after the stop: no round
    await new Promise((r) => setTimeout(r, 0));
    expect(w.rounds).toBe(1);
  });
});
