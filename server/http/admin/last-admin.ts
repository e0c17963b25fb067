import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';

/**
 * Ids of the active admins, locked until the transaction ends, so two admins removing each other at the same time
 * cannot both succeed and leave none.
 */
export async function lockActiveAdmins(tx: Db): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.isActive, true)))
    .for('update');
  return rows.map((r) => r.id);
}
