/**
 * `task` over every item, at most `limit` at a time, results in the items' order: independent
 * calls answered concurrently instead of one after another, without opening one connection per
 * item. `until(result)` true stops taking new items (those in flight finish); the results then
 * hold every item taken, holes where none was. A task that throws stops it the same way, and
 * the call rejects with that error.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
  until: (result: R) => boolean = () => false,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < items.length) {
      const index = next++;
      let result: R;
      try {
        result = await task(items[index] as T);
      } catch (error) {
        stopped = true; // Promise.all rejects now; the others finish what they hold and take no more
        throw error;
      }
      results[index] = result;
      if (until(result)) stopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
