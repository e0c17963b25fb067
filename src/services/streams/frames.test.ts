import { animationFrameScheduler, shareReplay, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { perShownFrame } from './frames';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const SHOWN = { t: true, f: false };

describe('perShownFrame', () => {
  it('renders the latest value once per frame while shown, holds it while hidden and renders it on return', () => {
    newScheduler().run(({ hot, animate, expectObservable, expectSubscriptions }) => {
      // Animation frames at 3, 7, 11, 15, 19, 23.
      animate('         ---x---x---x---x---x---x');
      const source = hot('-ab------cd------e---|');
      const shown$: Observable<boolean> = hot('t----f--------t', SHOWN).pipe(
        shareReplay({ bufferSize: 1, refCount: false }),
      );
      shown$.subscribe();
      // a and b in one frame: b at frame 3. c and d arrive hidden: nothing at frames 11 (still hidden); d at frame 15,
      // the first after the page is shown again at 14. e at the next frame, 19.
      expectObservable(source.pipe(perShownFrame(animationFrameScheduler, shown$))).toBe(
        '                 ---b-----------d---e-|',
      );
      // The source stays subscribed while hidden: its state is kept, nothing is fetched again.
      expectSubscriptions(source.subscriptions).toBe('^--------------------!');
    });
  });

  it('emits nothing while never shown, and the held value once shown', () => {
    newScheduler().run(({ hot, animate, expectObservable }) => {
      animate('         -x-x-x-x-x-x-x-x-x');
      const source = hot('a-b-c--------');
      const shown$: Observable<boolean> = hot('f-------t', SHOWN).pipe(shareReplay({ bufferSize: 1, refCount: false }));
      shown$.subscribe();
      // Shown at 8: the latest, c, on the next frame (9); a and b are never rendered.
      expectObservable(source.pipe(perShownFrame(animationFrameScheduler, shown$))).toBe('         ---------c');
    });
  });
});
