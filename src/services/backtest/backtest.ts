// The backtest call (POST /api/backtest). Kept out of the write actions: it changes nothing, and only the Backtest tab
// loads it. Offline it is refused at once with the same words as every call that needs the server.
import type { BacktestBody, BacktestResponse, BacktestResult } from '../../../contract/backtest';
import type { Http } from '../http';
import { OfflineRefusal } from '../offline/refuseOffline';

export function runBacktest(http: Http, body: BacktestBody, isOnline: () => boolean): Promise<BacktestResult> {
  if (!isOnline()) return Promise.reject(new OfflineRefusal());
  return http.post<BacktestResponse>('/backtest', body).then((res) => res.backtest);
}
