import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { PRODUCT_NAME } from '../../../contract/product';
import type { TwoFactorSetupResponse, TwoFactorStatus } from '../../../contract/guard';
import { useServices } from '../../hooks/services';
import { messageOf } from '../../hooks/errors';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { TextField } from '../../ui/Field';
import { button } from '../../ui/ui.css';
import { recoveryCodesText, saveTextFile } from './copyAndSave';
import { CopyButton } from './CopyButton';
import * as styles from './twoFactor.css';

const RECOVERY_FILE = 'arbitrade-recovery-codes.txt';

type Step =
  | { kind: 'idle' }
  | { kind: 'enrolling'; setup: TwoFactorSetupResponse }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'disabling' };

/** Profile's two-factor sign-in: set up (QR code, secret, confirm with a code, recovery codes once) or turn off. */
export function TwoFactorCard() {
  const { actions } = useServices();
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const reload = () =>
    actions.twoFactorStatus().then(
      (res) => setStatus(res.twoFactor),
      () => setStatus(null),
    );
  useEffect(() => {
    void reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const begin = async () => {
    setBusy(true);
    try {
      setStep({ kind: 'enrolling', setup: await actions.setupTwoFactor() });
      setCode('');
      setError(undefined);
    } catch (err) {
      toast.error(messageOf(err, 'Two-factor set-up could not start. Try again.'));
    } finally {
      setBusy(false);
    }
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      if (step.kind === 'enrolling') {
        const res = await actions.enableTwoFactor(code);
        setStep({ kind: 'codes', codes: res.recoveryCodes });
        toast.success('Two-factor sign-in is on');
      } else {
        const res = await actions.disableTwoFactor(code);
        setStep({ kind: 'idle' });
        toast.success(res.message);
      }
      setCode('');
      await reload();
    } catch (err) {
      setError(messageOf(err, 'That did not work. Try again.'));
    } finally {
      setBusy(false);
    }
  }

  const codeField = (label: string, hint: string) => (
    <TextField
      label={label}
      autoComplete="one-time-code"
      value={code}
      onChange={(e) => {
        setCode(e.target.value);
        setError(undefined);
      }}
      error={error}
      hint={hint}
    />
  );

  return (
    <Card
      title="Two-factor sign-in"
      data-testid="two-factor"
      action={
        status && (
          <Badge tone={status.enabled ? 'profit' : status.required ? 'warning' : 'neutral'}>
            {status.enabled ? 'on' : 'off'}
          </Badge>
        )
      }
    >
      <div className={styles.stack}>
        {status?.required && !status.enabled && (
          <p className={styles.text}>
            This server requires admins to use two-factor sign-in. Admin tools stay closed until you set it up.
          </p>
        )}
        {step.kind === 'codes' ? (
          <>
            <p className={styles.text}>
              Save these recovery codes somewhere safe. Each signs you in once if you lose your phone. They are shown
              only now.
            </p>
            <ul className={styles.codes} data-testid="recovery-codes">
              {step.codes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
            <div className={styles.actions}>
              <CopyButton text={step.codes.join('\n')} label="Copy codes" what="Recovery codes" />
              <Button
                variant="secondary"
                small
                onClick={() => saveTextFile(recoveryCodesText(step.codes, PRODUCT_NAME), RECOVERY_FILE)}
              >
                Download .txt
              </Button>
            </div>
            <div className={styles.actions}>
              <Button onClick={() => setStep({ kind: 'idle' })}>I have saved them</Button>
            </div>
          </>
        ) : step.kind === 'enrolling' ? (
          <form onSubmit={submit} noValidate className={styles.stack}>
            <p className={styles.text}>
              Scan the QR code with an authenticator app, or on this phone tap Add to authenticator (or copy the secret
              into the app), then enter the 6-digit code it shows.
            </p>
            <img className={styles.qr} src={step.setup.qrDataUrl} alt="QR code for your authenticator app" />
            <div className={styles.actions}>
              {/* The otpauth:// link opens the phone's authenticator app with the account filled in. */}
              <a className={button.primary} href={step.setup.otpauthUrl} data-testid="otpauth-link">
                Add to authenticator
              </a>
            </div>
            <div className={styles.secretRow}>
              <div className={styles.text}>Secret</div>
              <div className={styles.secret} data-testid="totp-secret">
                {step.setup.secret}
              </div>
              <CopyButton text={step.setup.secret} label="Copy secret" what="Secret" />
            </div>
            {codeField('Code from the app', '6 digits')}
            <div className={styles.actions}>
              <Button type="submit" disabled={busy}>
                Confirm
              </Button>
              <Button variant="secondary" onClick={() => setStep({ kind: 'idle' })}>
                Cancel
              </Button>
            </div>
          </form>
        ) : step.kind === 'disabling' ? (
          <form onSubmit={submit} noValidate className={styles.stack}>
            {codeField('Code', 'A current code from your app, or a recovery code')}
            <div className={styles.actions}>
              <Button type="submit" variant="danger" disabled={busy}>
                Turn off
              </Button>
              <Button variant="secondary" onClick={() => setStep({ kind: 'idle' })}>
                Cancel
              </Button>
            </div>
          </form>
        ) : status?.enabled ? (
          <>
            <p className={styles.text}>
              Sign-in asks for a code from your authenticator app. Recovery codes left: {status.recoveryCodesLeft}.
            </p>
            {!status.required && (
              <div className={styles.actions}>
                <Button
                  variant="secondary"
                  onClick={() => (setStep({ kind: 'disabling' }), setCode(''), setError(undefined))}
                >
                  Turn off two-factor sign-in
                </Button>
              </div>
            )}
          </>
        ) : (
          <>
            <p className={styles.text}>Protect your account with a code from an authenticator app at every sign-in.</p>
            <div className={styles.actions}>
              <Button onClick={() => void begin()} disabled={busy}>
                Set up two-factor sign-in
              </Button>
            </div>
          </>
        )}
      </div>
    </Card>
  );
}
