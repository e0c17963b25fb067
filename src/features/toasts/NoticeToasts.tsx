import { useSubscription } from 'observable-hooks';
import { toast } from 'react-toastify';
import { useServices } from '../../hooks/services';

/** Shows the service layer's notices (load failures and the like) as toasts, one at a time per message. */
export function NoticeToasts() {
  const { notifier } = useServices();
  useSubscription(notifier.notices$, (n) => {
    const opts = n.key ? { toastId: n.key } : {};
    if (n.key && toast.isActive(n.key)) return;
    toast[n.level](n.message, opts);
  });
  return null;
}
