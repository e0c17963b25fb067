import { describe, expect, it } from 'vitest';
import { isNeverCached } from '../../sw/routes';

const origin = 'https://app.example';
describe('isNeverCached', () => {
  it.each([
    ['/api/trades?page=1', true],
    ['/api', true],
    ['/socket.io/?EIO=4&transport=polling', true],
    ['/apiary', false],
    ['/trades', false],
    ['/assets/index-abc.js', false],
  ])('%s → %s', (path, expected) => {
    expect(isNeverCached(new URL(path, origin), origin)).toBe(expected);
  });

  it('other origins are not ours to judge', () => {
    expect(isNeverCached(new URL('https://cdn.example/api/x'), origin)).toBe(false);
  });
});
