import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import * as styles from './auth.css';
import { useSession } from '../hooks/services';
import { showNotice, SIGN_IN_ERROR_KEY } from '../features/toasts/notices';
import { hasErrors, validateLogin, type Errors, type LoginInput } from '../lib/validation';
import { markFirstPaint, SIGN_IN_PAINTED } from '../lib/paintMark';
import { landingPathFor } from '../services/auth/authState';
import { Button } from '../ui/Button';
import { Checkbox, TextField } from '../ui/Field';
import { SecondStep } from '../features/auth/SecondStep';
import { PRODUCT_NAME } from '../../contract/product';

const markSignInPainted = markFirstPaint(SIGN_IN_PAINTED);

export function LoginScreen() {
  const { auth } = useSession();
  const navigate = useNavigate();
  const search = useSearch({ from: '/login' });
  const [values, setValues] = useState<LoginInput>({ email: '', password: '' });
  const [errors, setErrors] = useState<Errors<keyof LoginInput>>({});
  const [showPassword, setShowPassword] = useState(false);
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  /** Set after a right password for an account with two-factor sign-in: the form then asks for the code. */
  const [challenge, setChallenge] = useState<string | null>(null);

  const change = (k: keyof LoginInput) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [k]: e.target.value }));
    // Errors clear as the user types.
    if (errors[k]) setErrors((er) => ({ ...er, [k]: undefined }));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateLogin(values);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      const result = await auth.login(values.email, values.password);
      if (result.ok === 'challenge') {
        setChallenge(result.challenge);
        return;
      }
      if (!result.ok) {
        // A new refusal replaces the one showing (same key): one sign-in error at a time, always the latest.
        if (result.unexpected)
          showNotice({
            level: 'error',
            key: SIGN_IN_ERROR_KEY,
            message: <LoginFailed text="An unexpected error occurred. Please try again." />,
          });
        else showNotice({ level: 'error', key: SIGN_IN_ERROR_KEY, message: result.message });
        return;
      }
      // The earlier refusal is no longer true: the success takes its place (same key), it does not stand beside it.
      showNotice({ level: 'success', key: SIGN_IN_ERROR_KEY, message: 'Login successful!' });
      await navigate({ to: search.redirect ?? landingPathFor(result.user) });
    } catch {
      showNotice({
        level: 'error',
        key: SIGN_IN_ERROR_KEY,
        message: <LoginFailed text="An unexpected error occurred. Please try again." />,
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className={styles.page}>
      <div className={styles.panel}>
        <div className={styles.brand}>
          <div className={styles.logo} aria-hidden="true">
            A
          </div>
          <span className={styles.brandName}>{PRODUCT_NAME}</span>
        </div>
        <h1 className={styles.title}>Sign in</h1>
        <p className={styles.subtitle}>Binance ⇄ Deriv arbitrage, live.</p>
        {challenge ? (
          <SecondStep
            challenge={challenge}
            onDone={(user) => navigate({ to: search.redirect ?? landingPathFor(user) })}
            onRestart={() => {
              setChallenge(null);
              setValues((v) => ({ ...v, password: '' }));
            }}
          />
        ) : (
          <form className={styles.form} onSubmit={submit} noValidate>
            <TextField
              label="Email"
              name="email"
              type="email"
              autoComplete="username"
              inputMode="email"
              value={values.email}
              onChange={change('email')}
              error={errors.email}
              placeholder="you@example.com"
            />
            <div className={styles.passwordWrap}>
              <TextField
                label="Password"
                name="password"
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                value={values.password}
                onChange={change('password')}
                error={errors.password}
                style={{ paddingRight: '64px' }}
              />
              <button
                type="button"
                className={styles.toggle}
                onClick={() => setShowPassword((s) => !s)}
                aria-pressed={showPassword}
                aria-label={showPassword ? 'Hide password' : 'Show password'}
              >
                {showPassword ? 'Hide' : 'Show'}
              </button>
            </div>
            <div className={styles.row}>
              <Checkbox label="Remember me" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
              <Link to="/forgot-password">Forgot password?</Link>
            </div>
            <Button ref={markSignInPainted} type="submit" className={styles.submit} disabled={busy}>
              {busy ? 'Signing in...' : 'Sign in'}
            </Button>
          </form>
        )}
        <p className={styles.footnote}>
          No account? Contact an admin for access. <Link to="/register">Request access</Link>
        </p>
      </div>
    </main>
  );
}

function LoginFailed({ text }: { text: string }) {
  return (
    <div>
      <strong>Login Failed</strong>
      <div>{text}</div>
    </div>
  );
}
