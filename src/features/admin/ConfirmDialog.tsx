import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';

export function ConfirmDialog({
  title,
  text,
  subject,
  note,
  confirmLabel,
  onConfirm,
  onCancel,
  busy,
}: {
  title: string;
  text: string;
  /** Who or what the action is about, named above the question (e.g. the user's name and e-mail). */
  subject?: string;
  /** What the server answered when it refused (shown under the question). */
  note?: string | null;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  return (
    <Modal
      title={title}
      onClose={onCancel}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {subject && (
        <p style={{ margin: '0 0 8px', fontWeight: 650, overflowWrap: 'anywhere' }} data-testid="confirm-subject">
          {subject}
        </p>
      )}
      <p style={{ margin: 0 }}>{text}</p>
      {note && (
        <p role="alert" style={{ margin: '12px 0 0', fontWeight: 600 }}>
          {note}
        </p>
      )}
    </Modal>
  );
}
