// Tokens told apart across holders: one random prefix per process (made with the first token, not
// when the module loads), then a counter.
import { expect, it, vi } from 'vitest';

it('makes the process prefix with the first token, then counts', async () => {
  vi.resetModules();
  const random = vi.spyOn(Math, 'random');
  const { uniqueToken } = await import('../../../src/internal/token.js');
  expect(random).not.toHaveBeenCalled(); // importing the file draws nothing
  const [first, second, third] = [uniqueToken(), uniqueToken(), uniqueToken()];
  expect(random).toHaveBeenCalledTimes(1);
  random.mockRestore();
  const prefix = first.split('.')[0] as string;
  expect(prefix).toMatch(/^[0-9a-z]{10,}$/);
  expect([first, second, third]).toEqual([`${prefix}.1`, `${prefix}.2`, `${prefix}.3`]);
});

it('gives another prefix in another process (module instance)', async () => {
  vi.resetModules();
  const a = (await import('../../../src/internal/token.js')).uniqueToken();
  vi.resetModules();
  const b = (await import('../../../src/internal/token.js')).uniqueToken();
  expect(a.split('.')[0]).not.toBe(b.split('.')[0]);
  expect(a.endsWith('.1') && b.endsWith('.1')).toBe(true);
});
