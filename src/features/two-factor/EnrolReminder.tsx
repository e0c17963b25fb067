import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useServices } from '../../hooks/services';
import * as styles from './twoFactor.css';

/**
 * ADMIN_REQUIRE_2FA: an admin without a second factor is told on every screen that admin tools stay closed until
 * they set one up (the server answers those routes 403 until then).
 */
export function EnrolReminder({ isAdmin }: { isAdmin: boolean }) {
  const { actions } = useServices();
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    if (!isAdmin) return;
    let live = true;
    actions.twoFactorStatus().then(
      (res) => live && setNeeded(res.twoFactor.required && !res.twoFactor.enabled),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [actions, isAdmin]);
  if (!needed) return null;
  return (
    <div className={styles.reminder} role="note" data-testid="enrol-reminder">
      This server requires admins to use two-factor sign-in. <Link to="/profile">Set it up in Profile</Link> to open the admin tools.
    </div>
  );
}
