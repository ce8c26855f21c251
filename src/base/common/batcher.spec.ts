import { Batcher } from './batcher.js';

describe('Batcher', () => {
  it('writes items added in the same turn together, in order', async () => {
    const writes: number[][] = [];
    const b = new Batcher<number, number>(async (items) => {
      writes.push(items);
      return items.map((i) => i * 10);
    });
    const results = await Promise.all([1, 2, 3].map((i) => b.add(i)));
    expect(results).toEqual([10, 20, 30]);
    expect(writes).toEqual([[1, 2, 3]]);
    expect(await b.add(4)).toBe(40);
    expect(writes).toEqual([[1, 2, 3], [4]]);
  });

  it('isolates a failing item: its neighbours still succeed', async () => {
    const b = new Batcher<number, number>(async (items) => {
      if (items.includes(2)) throw new Error('bad item');
      return items;
    });
    const settled = await Promise.allSettled([1, 2, 3].map((i) => b.add(i)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('flushes at maxBatch without waiting for the turn to end', async () => {
    const sizes: number[] = [];
    const b = new Batcher<number, number>(async (items) => {
      sizes.push(items.length);
      return items;
    }, 2);
    await Promise.all([1, 2, 3].map((i) => b.add(i)));
    expect(sizes).toEqual([2, 1]);
  });
});
