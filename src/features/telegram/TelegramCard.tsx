import { useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import {
  TELEGRAM_CODE_TTL_MINUTES,
  type TelegramLinkResponse,
  type TelegramStatusResponse,
} from '../../../contract/telegram';
import { useServices } from '../../hooks/services';
import { messageOf } from '../../hooks/errors';
import { useTimeZone } from '../../hooks/timeZone';
import { formatDate } from '../../lib/format';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import * as styles from '../two-factor/twoFactor.css';
import * as ui from '../../ui/ui.css';
import * as own from './telegram.css';

/** The user's zone (Profile, else the browser's) and the browser's locale go with the code: the bot shows times in them. */
function readerOfThisBrowser(timeZone: string) {
  const options = Intl.DateTimeFormat().resolvedOptions();
  return { timeZone, locale: navigator.language || options.locale };
}

/**
 * Profile → Connect Telegram: a one-time code and the t.me link that sends it to the bot, the linked chat, and
 * unlinking it. Absent when the server has no bot.
 */
export function TelegramCard() {
  const { actions } = useServices();
  const timeZone = useTimeZone();
  const [status, setStatus] = useState<TelegramStatusResponse | null>(null);
  const [issued, setIssued] = useState<TelegramLinkResponse | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = () =>
    actions.telegramStatus().then(
      (res) => {
        setStatus(res);
        if (res.link) setIssued(null);
      },
      () => setStatus(null),
    );
  useEffect(() => {
    void reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!status?.available) return null;

  const connect = async () => {
    setBusy(true);
    try {
      setIssued(await actions.telegramLinkCode(readerOfThisBrowser(timeZone)));
    } catch (err) {
      toast.error(messageOf(err, 'No link code right now. Try again.'));
    } finally {
      setBusy(false);
    }
  };

  const unlink = async () => {
    setBusy(true);
    try {
      toast.success((await actions.unlinkTelegram()).message);
      await reload();
    } catch (err) {
      toast.error(messageOf(err, 'The chat could not be unlinked. Try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      title="Telegram"
      data-testid="telegram"
      action={<Badge tone={status.link ? 'profit' : 'neutral'}>{status.link ? 'linked' : 'not linked'}</Badge>}
    >
      <div className={styles.stack}>
        {status.link ? (
          <>
            <p className={styles.text}>
              Linked to <strong data-testid="telegram-chat">{status.link.chatName}</strong> since{' '}
              {formatDate(status.link.linkedAt, timeZone)}. Notifications go there as chosen in Settings; /stop there
              stops and flattens your trading.
            </p>
            <div className={styles.actions}>
              <Button variant="danger" onClick={unlink} disabled={busy}>
                Unlink Telegram
              </Button>
            </div>
          </>
        ) : issued ? (
          <>
            <p className={styles.text}>
              Open the link on a device with Telegram and press Start, or send this to @{issued.botUsername}. The code
              works once, for {TELEGRAM_CODE_TTL_MINUTES} minutes.
            </p>
            <code className={own.code} data-testid="telegram-code">
              /start {issued.code}
            </code>
            <div className={styles.actions}>
              <a className={ui.button.primary} href={issued.url} target="_blank" rel="noopener noreferrer">
                Open Telegram
              </a>
              <Button variant="secondary" onClick={reload} disabled={busy}>
                I have sent it
              </Button>
            </div>
          </>
        ) : (
          <>
            <p className={styles.text}>
              Get your trade results and trading alerts in Telegram, and stop trading from any phone with /stop.
            </p>
            <div className={styles.actions}>
              <Button onClick={connect} disabled={busy}>
                Connect Telegram
              </Button>
            </div>
          </>
        )}
      </div>
    </Card>
  );
}
