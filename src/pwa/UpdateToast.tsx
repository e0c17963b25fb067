import { toast } from 'react-toastify';
import * as styles from './updateToast.css';

export const UPDATE_TOAST_ID = 'app-update';
export const UPDATE_MESSAGE = 'A new version is available';

export function UpdateToast({ onReload }: { onReload: () => void }) {
  return (
    <div className={styles.body}>
      <span>{UPDATE_MESSAGE}</span>
      <button type="button" className={styles.reload} onClick={onReload}>
        Reload
      </button>
    </div>
  );
}

/** One sticky toast (no auto-close: the user decides when to reload), shown once however often it is asked for. */
export function showUpdateToast(onReload: () => void): void {
  if (toast.isActive(UPDATE_TOAST_ID)) return;
  toast.info(<UpdateToast onReload={onReload} />, {
    toastId: UPDATE_TOAST_ID,
    autoClose: false,
    closeOnClick: false,
    draggable: false,
  });
}
