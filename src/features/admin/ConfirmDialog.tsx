import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';

export function ConfirmDialog({
  title,
  text,
  note,
  confirmLabel,
  onConfirm,
  onCancel,
  busy,
}: {
  title: string;
  text: string;
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
      <p style={{ margin: 0 }}>{text}</p>
      {note && (
        <p role="alert" style={{ margin: '12px 0 0', fontWeight: 600 }}>
          {note}
        </p>
      )}
    </Modal>
  );
}
