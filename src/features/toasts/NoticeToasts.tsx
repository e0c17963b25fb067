import { useSubscription } from 'observable-hooks';
import { useServices } from '../../hooks/services';
import { showNotice } from './notices';

/** Shows the service layer's notices (load failures and the like) as toasts, one at a time per message. */
export function NoticeToasts() {
  const { notifier } = useServices();
  useSubscription(notifier.notices$, showNotice);
  return null;
}
