import { describe, expect, it } from 'vitest';
import { articleFor, withArticle } from './article';

describe('articleFor', () => {
  it('says pairs as they are spelled out: a BTC/USDT, an ETH/USDT', () => {
    expect(withArticle('ETH/USDT')).toBe('an ETH/USDT');
    expect(withArticle('BTC/USDT')).toBe('a BTC/USDT');
    expect(withArticle('SOL/USDT')).toBe('an SOL/USDT');
    expect(withArticle('XRP')).toBe('an XRP');
    expect(withArticle('USDT')).toBe('a USDT');
  });
  it('goes by the first letter for ordinary words', () => {
    expect(articleFor('opportunity')).toBe('an');
    expect(articleFor('trade')).toBe('a');
    expect(articleFor('Arbitrage')).toBe('an');
  });
});
