// Marble tests of the per-symbol price coalescing, plus a generated-path property check on virtual time.
import fc from 'fast-check';
import { Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { coalesceLatestPerKey, periodForHz } from '../../../server/realtime/coalesce';

interface Tick {
  symbol: string;
  n: number;
}

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const bySymbol = (tick: Tick) => tick.symbol;

// a b c d e are BTC ticks, x y z are ETH ticks.
const ticks: Record<string, Tick> = {
  a: { symbol: 'BTC', n: 1 },
  b: { symbol: 'BTC', n: 2 },
  c: { symbol: 'BTC', n: 3 },
  d: { symbol: 'BTC', n: 4 },
  e: { symbol: 'BTC', n: 5 },
  x: { symbol: 'ETH', n: 1 },
  y: { symbol: 'ETH', n: 2 },
  z: { symbol: 'ETH', n: 3 },
};

describe('coalesceLatestPerKey', () => {
  it('lets the first tick of a burst through at once and delivers the latest when the period ends', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const source = cold('abcd-----|', ticks);
      expectObservable(source.pipe(coalesceLatestPerKey(bySymbol, 4))).toBe('a---d----|', ticks);
    });
  });

  it('keeps symbols independent: a busy symbol does not hold back another', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const source = cold('axby-----|', ticks);
      expectObservable(source.pipe(coalesceLatestPerKey(bySymbol, 5))).toBe('ax---by--|', ticks);
    });
  });

  it('passes isolated ticks through unchanged', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const source = cold('a------x------b--|', ticks);
      expectObservable(source.pipe(coalesceLatestPerKey(bySymbol, 3))).toBe('a------x------b--|', ticks);
    });
  });

  it('still delivers the trailing value when the source completes inside a period', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const source = cold('abc|', ticks);
      expectObservable(source.pipe(coalesceLatestPerKey(bySymbol, 5))).toBe('a----(c|)', ticks);
    });
  });

  it('bounds a long burst to one value per period, the newest each time', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      // A tick every 3 frames with a 5-frame period: a leads, then each period ends with the newest tick seen.
      const source = cold('a--b--c--d--e---|', ticks);
      expectObservable(source.pipe(coalesceLatestPerKey(bySymbol, 5))).toBe('a----b----d----e|', ticks);
    });
  });

  it('forwards errors', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const source = cold('ab#', ticks);
      expectObservable(source.pipe(coalesceLatestPerKey(bySymbol, 5))).toBe('a-#', ticks);
    });
  });

  it('is the identity when coalescing is off', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const source = cold('abxcd|', ticks);
      expectObservable(source.pipe(coalesceLatestPerKey(bySymbol, periodForHz(Infinity)))).toBe('abxcd|', ticks);
    });
  });

  it('turns a rate into a period', () => {
    expect(periodForHz(4)).toBe(250);
    expect(periodForHz(0)).toBe(0);
    expect(periodForHz(Number.POSITIVE_INFINITY)).toBe(0);
  });

  it('on any tick path: per symbol, emits are a period apart, in order, and the last tick is delivered within a period', () => {
    const period = 7;
    const path = fc.array(
      fc.record({ gap: fc.integer({ min: 0, max: 12 }), symbol: fc.constantFrom('BTC', 'ETH', 'SOL') }),
      {
        minLength: 1,
        maxLength: 60,
      },
    );
    fc.assert(
      fc.property(path, (steps) => {
        const scheduler = new TestScheduler(() => undefined);
        const emitted: Array<{ at: number; tick: Tick }> = [];
        let time = 0;
        const input: Array<{ at: number; tick: Tick }> = steps.map((step, n) => {
          time += step.gap;
          return { at: time, tick: { symbol: step.symbol, n } };
        });
        scheduler.run(() => {
          // Each generated tick is fed at its own virtual time; the stream completes after the last one.
          const source = new Subject<Tick>();
          source
            .pipe(coalesceLatestPerKey(bySymbol, period, scheduler))
            .subscribe((tick) => emitted.push({ at: scheduler.now(), tick }));
          for (const { at, tick } of input) scheduler.schedule(() => source.next(tick), at);
          scheduler.schedule(() => source.complete(), time + 1);
        });
        for (const symbol of ['BTC', 'ETH', 'SOL']) {
          const sent = input.filter((entry) => entry.tick.symbol === symbol);
          const got = emitted.filter((entry) => entry.tick.symbol === symbol);
          if (sent.length === 0) {
            expect(got).toEqual([]);
            continue;
          }
          expect(got.at(-1)?.tick).toEqual(sent.at(-1)?.tick);
          for (const { at, tick } of got) expect(input[tick.n]!.at).toBeLessThanOrEqual(at);
          // Fresh: the newest tick is out within one period of arriving.
          expect(got.at(-1)!.at).toBeLessThanOrEqual(sent.at(-1)!.at + period);
          for (let i = 1; i < got.length; i++) {
            expect(got[i]!.at - got[i - 1]!.at).toBeGreaterThanOrEqual(period);
            expect(got[i]!.tick.n).toBeGreaterThan(got[i - 1]!.tick.n);
          }
        }
      }),
      { seed: 20261121, numRuns: 300 },
    );
  });
});
