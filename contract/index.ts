export * from './domain';
export type * from './entities';
export * from './events';
export * from './api';
