export { TradingControl, type LimitChanges, type SaveSettingsResult, type EnableResult } from './control';
export type { CloseAllOutcome } from './close-all';
export type { TradingEngine } from './engine-port';
export { engineStopRecorder, type EngineStopRecorder } from './engine-stops';
export { missingTradingKeys, TRADING_KEYS_MISSING } from './keys';
