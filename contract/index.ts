export * from './domain';
export type * from './entities';
export * from './events';
export * from './api';
export * from './rules';
export * from './spreads';
export * from './figures';
export * from './guard';
