import { useEffect, useState } from 'react';
import type { EngineInstancesResponse } from '../../../contract/engine-instances';
import { useServices } from '../../hooks/services';
import { useTimeZone } from '../../hooks/timeZone';
import { formatDate } from '../../lib/format';
import { messageOf } from '../../hooks/errors';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import * as ui from '../../ui/ui.css';
import * as styles from './admin.css';

const list = (shards: number[]) => shards.join(', ');

/** User Management: the server instances and the engine shards each trades (ENGINE_SHARDS). */
export function EngineCard() {
  const { actions } = useServices();
  const timeZone = useTimeZone();
  const [view, setView] = useState<EngineInstancesResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    actions.engineInstances().then(
      (res) => live && (setView(res), setError(null)),
      (err: unknown) => live && setError(messageOf(err, 'The engine instances could not be loaded. Try again.')),
    );
    return () => {
      live = false;
    };
  }, [actions, version]);

  const refresh = (
    <Button variant="secondary" onClick={() => setVersion((v) => v + 1)}>
      Refresh
    </Button>
  );
  return (
    <Card title="Trading engine" action={refresh} data-testid="engine-instances">
      {error ? (
        <div className={ui.empty}>{error}</div>
      ) : !view ? (
        <div className={ui.empty}>Loading instances...</div>
      ) : (
        <>
          <p className={styles.backupText} style={{ marginBottom: '12px' }}>
            {view.shardCount === 1
              ? 'One engine trades every user; any other instance with the engine on stands by.'
              : `Users are split into ${view.shardCount} shards; each is traded by one instance.`}
            {view.unheld.length > 0 && ` Not traded right now: shard ${list(view.unheld)}.`}
          </p>
          <ul className={styles.instanceList}>
            {view.instances.map((i) => (
              <li key={i.id} className={styles.instanceRow}>
                <div>
                  <div className={styles.instanceHost}>
                    {i.host} {i.self && <Badge tone="primary">this server</Badge>}
                  </div>
                  <div className={styles.instanceMeta}>
                    Started {formatDate(i.started, timeZone)} · {i.id.slice(0, 8)}
                  </div>
                </div>
                <div className={styles.instanceBadges}>
                  {!i.engine ? (
                    <Badge tone="neutral">Engine off</Badge>
                  ) : i.shards.length === 0 ? (
                    <Badge tone="warning">Standing by</Badge>
                  ) : (
                    <Badge tone="profit">
                      {view.shardCount === 1 ? 'Trading' : `Shard${i.shards.length === 1 ? '' : 's'} ${list(i.shards)}`}
                    </Badge>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
