// The response schema of GET /snapshot: every figure in it has the shape of contract/entities.ts (each schema is checked
// against its type), documented in OpenAPI and enforced by the serializer, so nothing undeclared leaves the server.
import { z } from 'zod';
import {
  LEG_SIDES,
  LEG_STATUSES,
  MARKET_KINDS,
  OPPORTUNITY_OUTCOMES,
  SIM_PROFILES,
  TRADE_ORIGINS,
  TRADE_STATUSES,
  VENUES,
} from '../../../contract/domain';
import type {
  Balances,
  MarketInfo,
  OpportunityOutcome,
  Pagination,
  RiskSummary,
  Stats,
  SymbolPrice,
  Trade,
  VenueBalances,
} from '../../../contract/entities';
import type { TradingHaltState, TwoFactorStatus } from '../../../contract/guard';
import { TRADING_STOPS } from '../../../contract/trading-state';
import { VENUE_LINK_STATES, type VenueHealth } from '../../../contract/venue-health';
import { PublicUserSchema } from '../plugins/response-schemas';

const Fill = z.object({ price: z.number(), quantity: z.number(), fee: z.number(), at: z.string() });
const Leg = z.object({
  venue: z.enum(VENUES),
  side: z.enum(LEG_SIDES),
  clientOrderId: z.string(),
  venueOrderId: z.string().nullable(),
  status: z.enum(LEG_STATUSES),
  open: Fill.nullable(),
  close: Fill.nullable(),
});
const Quote = z.object({ bid: z.number(), ask: z.number() });
/** A pair's name as the server answers it (one of the pairs it trades, contract/pairs.ts). */
const PairName = z.templateLiteral([z.string(), '/USDT']);
export const TradeSchema = z.object({
  _id: z.string(),
  tradeId: z.string(),
  userId: z.string(),
  symbol: PairName,
  status: z.enum(TRADE_STATUSES),
  totalAmount: z.number(),
  arbitrageSpread: z.number(),
  actualProfit: z.number(),
  origin: z.enum(TRADE_ORIGINS),
  reason: z.string().nullable(),
  legs: z.array(Leg),
  decision: z.object({ binance: Quote, deriv: Quote }).nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  closedAt: z.string().nullable(),
}) satisfies z.ZodType<Trade>;

const SymbolPriceSchema = z.object({
  symbol: PairName,
  binance: z.number().nullable(),
  deriv: z.number().nullable(),
  spread: z.number().nullable(),
  arbitrage: z.object({ profitable: z.boolean() }),
  timestamp: z.string(),
  stale: z.boolean(),
  ageMs: z.object({ binance: z.number().nullable(), deriv: z.number().nullable() }),
}) satisfies z.ZodType<SymbolPrice>;
// One key per pair the server has a price for.
const PricesSchema = z.record(PairName, SymbolPriceSchema);

// Every currency the account holds: USDT and each traded pair's coin.
const VenueBalancesSchema = z.record(z.string(), z.number()) satisfies z.ZodType<VenueBalances>;
const BalancesSchema = z.object({
  binance: VenueBalancesSchema,
  deriv: VenueBalancesSchema,
  netProfit: z.number(),
  winRate: z.number(),
  decidedTrades: z.number(),
  totalTrades: z.number(),
  successfulTrades: z.number(),
  failedTrades: z.number(),
  totalValue: z.number(),
  updatedAt: z.string(),
}) satisfies z.ZodType<Balances>;
const StatsSchema = z.object({
  totalTrades: z.number(),
  successfulTrades: z.number(),
  failedTrades: z.number(),
  totalProfit: z.number(),
  netProfit: z.number(),
  winRate: z.number(),
  decidedTrades: z.number(),
  totalValue: z.number(),
}) satisfies z.ZodType<Stats>;
const MarketSchema = z.object({
  kind: z.enum(MARKET_KINDS),
  simProfile: z.enum(SIM_PROFILES).nullable(),
  tradeMaxHoldMs: z.number().optional(),
  costFloor: z.number().optional(),
  symbols: z.array(PairName).optional().describe('The pairs this server trades, in its order'),
  pace: z
    .object({ perDay: z.number(), days: z.number(), threshold: z.number() })
    .nullable()
    .optional()
    .describe("The calibrated market's recorded opportunities a day over its last week; absent on other markets"),
}) satisfies z.ZodType<MarketInfo>;
const HaltSchema = z.object({
  halted: z.boolean(),
  reason: z.string(),
  changedBy: z.string(),
  changedAt: z.string().nullable(),
}) satisfies z.ZodType<TradingHaltState>;
const RiskSchema = z.object({
  state: z.enum(['running', 'off', 'paused', 'halted']),
  stop: z.enum(TRADING_STOPS).nullable().optional(),
  reason: z.string().nullable(),
  since: z.string().nullable(),
  realised: z.number(),
  peak: z.number(),
  drawdown: z.number(),
  maxLoss: z.number(),
  exposure: z.number(),
  maxExposure: z.number(),
  windowStart: z.string().nullable(),
}) satisfies z.ZodType<RiskSummary>;
const TwoFactorSchema = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number(),
  required: z.boolean(),
}) satisfies z.ZodType<TwoFactorStatus>;
const OutcomeSchema = z.object({
  symbol: PairName,
  spread: z.number(),
  direction: z.enum(['deriv-rich', 'binance-rich']),
  outcome: z.enum(OPPORTUNITY_OUTCOMES),
  reason: z.string(),
  tradeId: z.string().nullable(),
  at: z.string(),
}) satisfies z.ZodType<OpportunityOutcome>;

const VenueHealthSchema = z.object({
  venue: z.enum(VENUES),
  state: z.enum(VENUE_LINK_STATES),
  since: z.string().nullable(),
  latencyMs: z.number().nullable(),
  latencyAt: z.string().nullable(),
  probe: z.string(),
  lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
  reportedAt: z.string(),
}) satisfies z.ZodType<VenueHealth>;

export const SnapshotAnswer = z.object({
  success: z.literal(true),
  user: PublicUserSchema,
  market: MarketSchema,
  halt: HaltSchema,
  prices: PricesSchema.nullable().describe(
    'Null on an instance that runs no engine (API only): GET /exchanges/prices answers 503 there',
  ),
  venues: z
    .array(VenueHealthSchema)
    .nullable()
    .describe("Each venue's connection (state, round trip, last error); null on an instance that runs no engine"),
  balance: BalancesSchema,
  stats: StatsSchema,
  recent: z
    .object({
      trades: z.array(TradeSchema),
      pagination: z.object({
        current: z.number(),
        pages: z.number(),
        total: z.number(),
      }) satisfies z.ZodType<Pagination>,
    })
    .describe('The newest trades, as GET /trades?page=1&limit=20 answers them'),
  risk: RiskSchema,
  twoFactor: TwoFactorSchema,
  outcomes: z
    .array(OutcomeSchema)
    .describe('The newest opportunity outcomes, newest first; empty on an instance that runs no engine'),
});
