// Whether the user is in the middle of editing a form, judged from the DOM so no screen has to report it:
// a form counts as being edited from its first input event until it is reset or leaves the page (a submitted form
// whose save failed still holds what was typed, so submit does not clear it); a focused text field counts too.

const edited = new WeakSet<HTMLFormElement>();
let tracking = false;

export function trackFormEditing(doc: Document = document): void {
  if (tracking) return;
  tracking = true;
  doc.addEventListener(
    'input',
    (e) => {
      const form = (e.target as Element | null)?.closest?.('form');
      if (form) edited.add(form);
    },
    true,
  );
  doc.addEventListener('reset', (e) => edited.delete(e.target as HTMLFormElement), true);
}

export function isEditingForm(doc: Document = document): boolean {
  const active = doc.activeElement;
  if (active instanceof HTMLTextAreaElement || active instanceof HTMLSelectElement) return true;
  if (active instanceof HTMLInputElement && !['button', 'submit', 'reset', 'checkbox', 'radio'].includes(active.type))
    return true;
  return Array.from(doc.forms).some((f) => edited.has(f));
}
