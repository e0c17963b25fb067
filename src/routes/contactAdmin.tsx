import { Link } from '@tanstack/react-router';
import * as styles from './auth.css';

export function ContactAdmin({ title, text }: { title: string; text: string }) {
  return (
    <main className={styles.page}>
      <div className={styles.panel}>
        <h1 className={styles.title}>{title}</h1>
        <p className={styles.subtitle}>{text}</p>
        <Link to="/login">Back to sign in</Link>
      </div>
    </main>
  );
}

export function ForgotPasswordScreen() {
  return <ContactAdmin title="Forgot your password?" text="Please contact an admin to reset your password." />;
}
