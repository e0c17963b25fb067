// What an engine emitted, kept in order, and a wait for the first event (seen already or still to come) that matches.
import type { Observable } from 'rxjs';
import type { EngineEvent } from '../../../server/engine/events';

export interface EventLog {
  events: EngineEvent[];
  /** Resolves when an event matching the predicate has been seen (past or future). */
  waitFor(predicate: (e: EngineEvent) => boolean): Promise<EngineEvent>;
}

export function eventLog(events$: Observable<EngineEvent>): EventLog {
  const events: EngineEvent[] = [];
  const waiters: { predicate: (e: EngineEvent) => boolean; resolve: (e: EngineEvent) => void }[] = [];
  events$.subscribe((e) => {
    events.push(e);
    for (const w of [...waiters]) {
      if (!w.predicate(e)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(e);
    }
  });
  return {
    events,
    waitFor: (predicate) => {
      const seen = events.find(predicate);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
  };
}
