import { format } from 'date-fns';
import { openDB } from 'idb';
import { useEffect, useState } from 'react';
import { io } from 'socket.io-client';
import { auth$ } from './auth';

/** The signed-in screen: live prices over Socket.IO, the last ones kept in IndexedDB. */
export function Dashboard() {
  const [prices, setPrices] = useState<Record<string, number>>({});
  useEffect(() => {
    const socket = io({ auth: { token: auth$.value.token } });
    const db = openDB('floor', 1, { upgrade: (d) => void d.createObjectStore('prices') });
    socket.on('price_update', (p: { symbol: string; price: number }) => {
      setPrices((old) => ({ ...old, [p.symbol]: p.price }));
      void db.then((d) => d.put('prices', p.price, p.symbol));
    });
    return () => void socket.close();
  }, []);
  return (
    <main>
      <h1>Dashboard</h1>
      <p>{format(new Date(), 'PPpp')}</p>
      <ul>
        {Object.entries(prices).map(([k, v]) => (
          <li key={k}>
            {k}: {v}
          </li>
        ))}
      </ul>
    </main>
  );
}
