export { attachRealtime, UNAUTHORIZED } from './gateway';
export type { Realtime, RealtimeOptions } from './gateway';
export type { SocketIdentity, VerifyToken } from './identity';
export { MAX_REFUSED_ROOM_REQUESTS, ROOM_REFUSED } from './rooms';
export { SIGNED_IN_ROOM } from './types';
export { coalesceLatestPerKey, periodForHz } from './coalesce';
export { attachRealtimeToApp } from './app';
