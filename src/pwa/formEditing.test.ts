import { beforeAll, describe, expect, it } from 'vitest';
import { isEditingForm, trackFormEditing } from './formEditing';

beforeAll(() => trackFormEditing(document));

function form(html: string): HTMLFormElement {
  const f = document.createElement('form');
  f.innerHTML = html;
  document.body.append(f);
  return f;
}

describe('form editing detection', () => {
  it('a page with an untouched form is not being edited', () => {
    document.body.innerHTML = '';
    form('<input name="a" type="number">');
    expect(isEditingForm()).toBe(false);
  });

  it('typing into a form marks it edited until it is reset or removed', () => {
    document.body.innerHTML = '';
    const f = form('<input name="a">');
    const input = f.querySelector('input')!;
    input.value = 'x';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.blur();
    expect(isEditingForm()).toBe(true);
    f.dispatchEvent(new Event('reset', { bubbles: true }));
    expect(isEditingForm()).toBe(false);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    f.remove();
    expect(isEditingForm()).toBe(false);
  });

  it('a focused text field counts, a focused button does not', () => {
    document.body.innerHTML = '<input id="t"><button id="b">go</button>';
    (document.getElementById('t') as HTMLInputElement).focus();
    expect(isEditingForm()).toBe(true);
    (document.getElementById('b') as HTMLButtonElement).focus();
    expect(isEditingForm()).toBe(false);
  });
});
