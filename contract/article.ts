// "a" or "an" before a word as it is said: a BTC/USDT trade, an ETH/USDT trade, an opportunity, a trade. A ticker is
// spelled out letter by letter, so it takes "an" when its first letter's name starts with a vowel sound (E is "ee",
// S is "ess", X is "ex"); other words go by their first letter. Every sentence built around a pair says it this way.

/** Letters whose spoken names start with a vowel sound. */
const VOWEL_SOUND_LETTERS = new Set(['A', 'E', 'F', 'H', 'I', 'L', 'M', 'N', 'O', 'R', 'S', 'X']);

export function articleFor(word: string): 'a' | 'an' {
  const first = word.trim()[0] ?? '';
  // A ticker (BTC, ETH, ETH/USDT): two or more capitals before any slash.
  if (/^[A-Z]{2,}(\/|$)/.test(word.trim())) return VOWEL_SOUND_LETTERS.has(first) ? 'an' : 'a';
  return /^[aeiou]/i.test(first) ? 'an' : 'a';
}

/** The word with its article: withArticle('ETH/USDT') → 'an ETH/USDT'. */
export const withArticle = (word: string): string => `${articleFor(word)} ${word}`;
