import { withAnswerFloor } from './answer-floor.js';

describe('withAnswerFloor', () => {
  const fake = () => {
    let t = 1000;
    const waits: number[] = [];
    return {
      now: () => t,
      pass: (ms: number) => (t += ms),
      wait: (ms: number) => {
        waits.push(ms);
        t += ms;
        return Promise.resolve();
      },
      waits,
    };
  };

  it('waits out the rest of the floor after quick work, and nothing after slow work', async () => {
    const c = fake();
    await expect(withAnswerFloor(250, async () => (c.pass(10), 'done'), c.wait, c.now)).resolves.toBe('done');
    await withAnswerFloor(250, async () => c.pass(300), c.wait, c.now);
    expect(c.waits).toEqual([240]);
  });

  it('waits out the floor when the work throws too', async () => {
    const c = fake();
    await expect(
      withAnswerFloor(
        250,
        async () => {
          c.pass(5);
          throw new Error('boom');
        },
        c.wait,
        c.now,
      ),
    ).rejects.toThrow('boom');
    expect(c.waits).toEqual([245]);
  });
});
