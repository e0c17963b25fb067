import { describe, expect, it } from 'vitest';
import type { AppServices } from './appServices';
import { createAppServicesLoader } from './appServicesLoader';

const fake = { http: {} } as unknown as AppServices;

describe('the signed-in services loader', () => {
  it('builds once, however often it is asked, and then holds them for synchronous reads', async () => {
    let builds = 0;
    const loader = createAppServicesLoader(async () => {
      builds++;
      return fake;
    });
    expect(loader.current).toBeNull();
    const [a, b] = await Promise.all([loader.load(), loader.load()]);
    expect(a).toBe(fake);
    expect(b).toBe(fake);
    expect(await loader.load()).toBe(fake);
    expect(loader.current).toBe(fake);
    expect(builds).toBe(1);
  });

  it('tries again after a failed load (a chunk that could not be fetched) instead of remembering the failure', async () => {
    let attempt = 0;
    const loader = createAppServicesLoader(async () => {
      attempt++;
      if (attempt === 1) throw new Error('chunk failed');
      return fake;
    });
    await expect(loader.load()).rejects.toThrow('chunk failed');
    expect(loader.current).toBeNull();
    expect(await loader.load()).toBe(fake);
    expect(attempt).toBe(2);
  });
});
