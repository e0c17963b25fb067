export * from './users';
export * from './sessions';
export * from './credentials';
export * from './trades';
export * from './balances';
export * from './spread-samples';
export * from './spread-minutes';
