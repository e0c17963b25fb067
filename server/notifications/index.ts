// Web push (server side). The process builds the service (buildApp decorates it as `app.push`) and, where the engine
// runs, the bridge from engine events. The kill switch tells users through the same service:
//
//   await app.push.send(userId, killSwitchMessage({ scope: 'user', closed, failed, by: 'you' }));   // stop & flatten
//   await app.push.broadcast(killSwitchMessage({ scope: 'global', closed, failed, by: 'an admin' })); // global halt
//
// Each is one request on one instance, so it is sent once; engine events are sent by the engine's leader only.
export {
  flattenSummary,
  killSwitchMessage,
  noticeMessage,
  testMessage,
  tradeMessage,
  type KillSwitchOutcome,
} from './messages';
export { createPushService, ENDPOINT_REFUSALS, type PushService, type SendReport } from './push-service';
export { isPublicAddress, type EgressOptions, type ResolveHost } from './egress';
export { startPushBridge } from './engine-bridge';
export { loadVapidKeys, VAPID_KEY_FILE, type VapidKeys } from './vapid';
export { withHistory, type HistoryOptions } from './history';
