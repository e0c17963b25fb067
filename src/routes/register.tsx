import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { showNotice } from '../features/toasts/notices';
import { useSession } from '../hooks/services';
import { hasErrors, validateRegistration, type Errors, type RegistrationInput } from '../lib/validation';
import { landingPathFor } from '../services/auth/authState';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { Spinner } from '../ui/Spinner';
import * as styles from './auth.css';
import { ContactAdmin } from './contactAdmin';

/**
 * /register: the spec's product has no self-registration, so by default this page says to contact an admin. When the
 * operator opens registration (ALLOW_REGISTRATION=true), the server says so and the page offers the form.
 */
export function RegisterScreen() {
  const { auth } = useSession();
  // A plain promise (it never rejects: a failed check reads as closed), so this public screen loads no RxJS.
  const [open, setOpen] = useState<boolean | null>(null);
  useEffect(() => {
    let current = true;
    void auth.registrationOpen().then((answer) => current && setOpen(answer));
    return () => {
      current = false;
    };
  }, [auth]);
  if (open === null) return <Spinner label="Loading..." />;
  if (!open)
    return (
      <ContactAdmin
        title="Need an account?"
        text="There is no self-registration. Please contact an admin to get access."
      />
    );
  return <RegisterForm />;
}

function RegisterForm() {
  const { auth } = useSession();
  const navigate = useNavigate();
  const [values, setValues] = useState<RegistrationInput>({ username: '', email: '', password: '' });
  const [errors, setErrors] = useState<Errors<keyof RegistrationInput>>({});
  const [busy, setBusy] = useState(false);
  const change = (k: keyof RegistrationInput) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [k]: e.target.value }));
    if (errors[k]) setErrors((er) => ({ ...er, [k]: undefined }));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateRegistration(values);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    const result = await auth.register({
      username: values.username.trim(),
      email: values.email.trim(),
      password: values.password,
    });
    setBusy(false);
    if (!result.ok) {
      // The server's field errors mark their fields too.
      const marked: Errors<keyof RegistrationInput> = {};
      for (const item of result.errors)
        if (item.path && item.path in values) marked[item.path as keyof RegistrationInput] ??= item.msg;
      setErrors(marked);
      showNotice({ level: 'error', message: result.message });
      return;
    }
    showNotice({ level: 'success', message: 'Registration successful!' });
    await navigate({ to: landingPathFor(result.user) });
  }

  return (
    <main className={styles.page}>
      <div className={styles.panel}>
        <h1 className={styles.title}>Create an account</h1>
        <p className={styles.subtitle}>Then save your venue keys in Settings to start trading.</p>
        <form className={styles.form} onSubmit={submit} noValidate aria-label="Create an account">
          <TextField
            label="Username"
            name="username"
            autoComplete="username"
            value={values.username}
            onChange={change('username')}
            error={errors.username}
          />
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            value={values.email}
            onChange={change('email')}
            error={errors.email}
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={change('password')}
            error={errors.password}
            hint="At least 8 characters"
          />
          <Button type="submit" className={styles.submit} disabled={busy}>
            {busy ? 'Creating account...' : 'Create account'}
          </Button>
        </form>
        <p className={styles.footnote}>
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      </div>
    </main>
  );
}
