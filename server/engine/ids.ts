// Trade identifiers. The trade id is the stem of client order ids ('<tradeId>-b-c' must fit Binance's 36 characters).
import { randomBytes, randomUUID } from 'node:crypto';

export function newTradeIds(now: number = Date.now()): { id: string; tradeId: string } {
  const stamp = now.toString(36).toUpperCase();
  const random = randomBytes(4).toString('hex').toUpperCase();
  return { id: randomUUID(), tradeId: `T${stamp}${random}` };
}
