// The real server process (server/process/run.ts, as server/main.ts runs it) on a market the test chooses, given
// as JSON in the first argument (see TestMarket). Started by server-process.ts.
import type { Venues } from '../../../server/venues';
import { simParams } from '../../../server/venues/sim/params';
import { VenueError, type Venue } from '../../../server/venues/types';
import { runServer } from '../../../server/process/run';

export interface TestMarket {
  /** Dislocations arrive within a second or two and stay wide for a while: a trade opens quickly, not in a minute. */
  dislocating?: boolean;
  /** Deriv opening orders reach the venue this much later than Binance's, so a test can kill between the fills. */
  derivOpenDelayMs?: number;
  /** Deriv refuses every opening order (insufficient balance), so each trade fails and unwinds Binance at a loss. */
  derivRefusesOpens?: boolean;
}

/** The venue with its opening orders replaced; everything else as it is. */
function withOpens(venue: Venue, openLeg: Venue['openLeg']): Venue {
  return Object.assign(Object.create(venue) as Venue, { openLeg });
}

const market = JSON.parse(process.argv[2] ?? '{}') as TestMarket;
const delay = market.derivOpenDelayMs ?? 0;

function derivAsTested(deriv: Venue): Venue {
  if (market.derivRefusesOpens) {
    return withOpens(deriv, async () => {
      throw new VenueError(
        'deriv',
        'insufficient-balance',
        'Your account balance is insufficient to buy this contract.',
      );
    });
  }
  if (delay > 0) {
    return withOpens(deriv, async (account, order) => {
      await new Promise((resolve) => setTimeout(resolve, delay));
      return deriv.openLeg(account, order);
    });
  }
  return deriv;
}

runServer({
  env: process.env,
  market: {
    ...(market.dislocating && {
      simParams: simParams({
        dislocation: {
          perMinute: 20,
          size: [0.008, 0.012],
          widenProbability: 0,
          stickyProbability: 0,
          halfLifeSeconds: [20, 30],
        },
      }),
    }),
    ...((delay > 0 || market.derivRefusesOpens) && {
      tradeOn: (venues: Venues) => ({ binance: venues.binance, deriv: derivAsTested(venues.deriv) }),
    }),
  },
}).catch((error: unknown) => {
  console.error('Failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
