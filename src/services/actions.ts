import type {
  AdminPairsResponse,
  ApiKeysBody,
  ChangePasswordBody,
  CreateTradeBody,
  CreateUserBody,
  LoginResponse,
  MessageResponse,
  ProfileBody,
  TestConnectionBody,
  TimeZoneBody,
  TestConnectionResponse,
  TradeResponse,
  TradeStatusBody,
  TradingMembershipResponse,
  TradingSettingsBody,
  UserResponse,
  UsersResponse,
} from '../../contract/api';
import type { Role } from '../../contract/domain';
import type { EngineInstancesResponse } from '../../contract/engine-instances';
import type {
  AuditQuery,
  AuditResponse,
  FlattenResponse,
  HaltResponse,
  TwoFactorEnabledResponse,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
} from '../../contract/guard';
import type { TelegramLinkBody, TelegramLinkResponse, TelegramStatusResponse } from '../../contract/telegram';
import type { Http } from './http';

/** The write calls of spec section 7, one function each; screens own the toasts. */
export function createActions(http: Http) {
  return {
    register: (body: { username: string; email: string; password: string }) =>
      http.post<LoginResponse>('/auth/register', body),
    changePassword: (body: ChangePasswordBody) =>
      http.put<MessageResponse & { token?: string }>('/auth/change-password', body),
    updateProfile: (body: ProfileBody) => http.put<UserResponse>('/auth/profile', body),
    setTimeZone: (body: TimeZoneBody) => http.put<UserResponse>('/auth/time-zone', body),
    saveTradingSettings: (userId: string, body: TradingSettingsBody) =>
      http.put<UserResponse>(`/users/${encodeURIComponent(userId)}`, body),
    saveApiKeys: (userId: string, body: ApiKeysBody) =>
      http.put<UserResponse>(`/users/${encodeURIComponent(userId)}/api-keys`, body),
    addToTrading: () => http.post<TradingMembershipResponse>('/exchanges/trading/add-user'),
    removeFromTrading: () => http.post<TradingMembershipResponse>('/exchanges/trading/remove-user'),
    testConnection: (body: TestConnectionBody) => http.post<TestConnectionResponse>('/exchanges/test-connection', body),
    syncBalances: () => http.post<{ success: boolean; message?: string }>('/exchanges/sync'),
    createTrade: (body: CreateTradeBody) => http.post<TradeResponse>('/trades', body),
    updateTradeStatus: (id: string, body: TradeStatusBody) =>
      http.put<TradeResponse>(`/trades/${encodeURIComponent(id)}/status`, body),
    listUsers: (query: { search?: string; role?: Role | '' }) => http.get<UsersResponse>('/admin/users', query),
    createUser: (body: CreateUserBody) => http.post<UserResponse>('/admin/users', body),
    /** `closeTrades`: the server closes the user's open trades first (otherwise it refuses while any are open). */
    deleteUser: (id: string, options: { closeTrades?: boolean } = {}) =>
      http.del<MessageResponse>(
        `/admin/users/${encodeURIComponent(id)}${options.closeTrades ? '?closeTrades=true' : ''}`,
      ),
    stopAndFlatten: () => http.post<FlattenResponse>('/exchanges/trading/stop-and-flatten'),
    haltTrading: (reason: string) => http.post<HaltResponse>('/admin/trading/halt', reason ? { reason } : {}),
    resumeTrading: () => http.post<HaltResponse>('/admin/trading/resume'),
    twoFactorStatus: () => http.get<TwoFactorStatusResponse>('/auth/2fa'),
    telegramStatus: () => http.get<TelegramStatusResponse>('/notifications/telegram'),
    telegramLinkCode: (body: TelegramLinkBody) => http.post<TelegramLinkResponse>('/notifications/telegram/link', body),
    unlinkTelegram: () => http.del<MessageResponse>('/notifications/telegram'),
    setupTwoFactor: () => http.post<TwoFactorSetupResponse>('/auth/2fa/setup'),
    enableTwoFactor: (code: string) => http.post<TwoFactorEnabledResponse>('/auth/2fa/enable', { code }),
    disableTwoFactor: (code: string) => http.post<MessageResponse>('/auth/2fa/disable', { code }),
    resetUserTwoFactor: (id: string) => http.post<MessageResponse>(`/admin/users/${encodeURIComponent(id)}/2fa/reset`),
    listAudit: (query: AuditQuery) => http.get<AuditResponse>('/admin/audit', { ...query }),
    /** A backup of the embedded database (admins; the server answers 409 on PostgreSQL). */
    downloadBackup: () => http.download('/admin/backup'),
    /** The server instances and the engine shards each trades (admins). */
    engineInstances: () => http.get<EngineInstancesResponse>('/admin/engine'),
    /** Every pair the product knows: offered by each venue, enabled here (admins). */
    adminPairs: () => http.get<AdminPairsResponse>('/admin/pairs'),
    ownActivity: (page: number, limit = 10) => http.get<AuditResponse>('/auth/activity', { page, limit }),
    toggleUserActive: (id: string) => http.put<UserResponse>(`/admin/users/${encodeURIComponent(id)}/toggle-active`),
  };
}
export type Actions = ReturnType<typeof createActions>;
