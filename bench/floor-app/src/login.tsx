import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { markFirstPaint, SIGN_IN_PAINTED } from '../../../src/lib/paintMark';
import { signIn } from './auth';
import * as s from './styles.css';

const markSignInPainted = markFirstPaint(SIGN_IN_PAINTED);

/** The same form as the product's: email, password with a show toggle, remember me, Sign in; checked before sending. */
export function Login() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [show, setShow] = useState(false);
  const [remember, setRemember] = useState(false);
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = {
      email: /^\S+@\S+\.\S+$/.test(email) ? undefined : 'Enter a valid email',
      password: password ? undefined : 'Password is required',
    };
    setErrors(found);
    if (found.email || found.password) return;
    setBusy(true);
    const r = await signIn(email, password);
    setBusy(false);
    if (!r.ok) return void toast.error(r.message);
    toast.success(r.message);
    await navigate({ to: '/dashboard' });
  }

  return (
    <main className={s.page}>
      <div className={s.panel}>
        <h1 className={s.title}>Sign in</h1>
        <form className={s.form} onSubmit={submit} noValidate>
          <label className={s.label}>
            Email
            <input
              className={s.input}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            {errors.email && <span className={s.error}>{errors.email}</span>}
          </label>
          <label className={s.label}>
            Password
            <input
              className={s.input}
              type={show ? 'text' : 'password'}
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            {errors.password && <span className={s.error}>{errors.password}</span>}
          </label>
          <div className={s.row}>
            <label>
              <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember me
            </label>
            <button type="button" onClick={() => setShow((v) => !v)} aria-pressed={show}>
              {show ? 'Hide' : 'Show'} password
            </button>
          </div>
          <button ref={markSignInPainted} type="submit" className={s.button} disabled={busy}>
            {busy ? 'Signing in...' : 'Sign in'}
          </button>
        </form>
      </div>
    </main>
  );
}
