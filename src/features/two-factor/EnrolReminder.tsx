import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useAuth, useServices } from '../../hooks/services';
import * as styles from './twoFactor.css';

/**
 * ADMIN_REQUIRE_2FA: an admin without a second factor is told on every screen that admin tools stay closed until
 * they set one up (the server answers those routes 403 until then).
 */
export function EnrolReminder({ isAdmin }: { isAdmin: boolean }) {
  const { actions, domain } = useServices();
  const userId = useAuth().user?._id ?? null;
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    if (!isAdmin || !userId) return;
    let live = true;
    // From the first paint's shared snapshot when there is one to join, else asked on its own.
    const status =
      domain.firstPaint.join(userId)?.then((s) => s.twoFactor) ??
      actions.twoFactorStatus().then((res) => res.twoFactor);
    status.then(
      (twoFactor) => live && setNeeded(twoFactor.required && !twoFactor.enabled),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [actions, domain, isAdmin, userId]);
  if (!needed) return null;
  return (
    <div className={styles.reminder} role="note" data-testid="enrol-reminder">
      This server requires admins to use two-factor sign-in. <Link to="/profile">Set it up in Profile</Link> to open the
      admin tools.
    </div>
  );
}
