import { numeric, timestamp } from 'drizzle-orm/pg-core';

/** Money and quantities: exact decimals, read as strings and handled with decimal.js. */
export const money = (name: string) => numeric(name, { precision: 28, scale: 10 });
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
