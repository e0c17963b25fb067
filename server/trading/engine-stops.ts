// The engine's own stops (max loss reached, repeated failed trades) recorded through the trading-state owner. The
// process hands this recorder to the engine (server/engine/index.ts, `recordStop`), so the engine changes a user's
// trading state only through this folder, without importing it.
import type { EngineStop } from '../../contract/trading-state';
import type { Db } from '../db/client';
import { recordEngineStop } from '../db/repositories/trading-state';

export type EngineStopRecorder = (userId: string, stop: EngineStop, reason: string) => Promise<void>;

export const engineStopRecorder =
  (db: Db): EngineStopRecorder =>
  (userId, stop, reason) =>
    recordEngineStop(db, userId, stop, reason);
