import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, testUser, type Handler } from '../../../tests/setup/renderApp';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const OTPAUTH = `otpauth://totp/ArbiTrade:trader%40example.com?issuer=ArbiTrade&secret=${SECRET}&algorithm=SHA1&digits=6&period=30`;
const CODES = ['aaaa-bbbb', 'cccc-dddd', 'eeee-ffff'];

const twoFactor: Handler = (m, p) => {
  if (m === 'GET' && p === '/api/auth/2fa')
    return { body: { success: true, twoFactor: { enabled: false, required: false, recoveryCodesLeft: 0 } } };
  if (m === 'POST' && p === '/api/auth/2fa/setup')
    return { body: { success: true, secret: SECRET, otpauthUrl: OTPAUTH, qrDataUrl: 'data:image/png;base64,AA==' } };
  if (m === 'POST' && p === '/api/auth/2fa/enable')
    return { body: { success: true, recoveryCodes: CODES, message: 'Two-factor sign-in is on' } };
  return undefined;
};

async function enrol(ui: ReturnType<typeof userEvent.setup>) {
  renderApp('/profile', { user: testUser(), handler: twoFactor });
  await ui.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
}

describe('Two-factor enrolment on a phone', () => {
  afterEach(() => vi.restoreAllMocks());

  it('links to the authenticator with the otpauth URI and copies the secret', async () => {
    const ui = userEvent.setup();
    await enrol(ui);
    const link = await screen.findByRole('link', { name: 'Add to authenticator' });
    expect(link.getAttribute('href')).toBe(OTPAUTH);
    await ui.click(screen.getByRole('button', { name: 'Copy secret' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(screen.getByText('Secret copied')).toBeTruthy();
  });

  it('says how to copy by hand when the Clipboard API is missing (plain HTTP)', async () => {
    const ui = userEvent.setup();
    await enrol(ui);
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    await ui.click(await screen.findByRole('button', { name: 'Copy secret' }));
    expect(
      screen.getByText('This browser does not allow copying here. Select the secret and copy it by hand.'),
    ).toBeTruthy();
  });

  it('copies the recovery codes and downloads them as a .txt file', async () => {
    const ui = userEvent.setup();
    await enrol(ui);
    await ui.type(await screen.findByLabelText('Code from the app'), '123456');
    await ui.click(screen.getByRole('button', { name: 'Confirm' }));
    const list = await screen.findByTestId('recovery-codes');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);

    await ui.click(screen.getByRole('button', { name: 'Copy codes' }));
    expect(await navigator.clipboard.readText()).toBe(CODES.join('\n'));
    expect(screen.getByText('Recovery codes copied')).toBeTruthy();

    let saved: { name: string; blob: Blob } | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved = { name: '', blob: blob as Blob };
      return 'blob:codes';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      if (saved) saved.name = this.download;
    });
    await ui.click(screen.getByRole('button', { name: 'Download .txt' }));
    expect(click).toHaveBeenCalledTimes(1);
    expect(saved?.name).toBe('arbitrade-recovery-codes.txt');
    const text = await saved!.blob.text();
    expect(text.split('\n').slice(3, 6)).toEqual(CODES);
    expect(text.startsWith('ArbiTrade recovery codes')).toBe(true);
  });
});
