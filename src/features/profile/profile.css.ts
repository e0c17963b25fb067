import { style } from '@vanilla-extract/css';
import { media, space, vars } from '../../styles/theme.css';

export const header = style({ display: 'flex', alignItems: 'center', gap: space.lg, flexWrap: 'wrap' });
export const bigAvatar = style({
  width: '64px',
  height: '64px',
  borderRadius: '50%',
  background: `linear-gradient(135deg, ${vars.color.primary}, ${vars.color.profit})`,
  color: '#fff',
  display: 'grid',
  placeItems: 'center',
  fontSize: '26px',
  fontWeight: 800,
  textTransform: 'uppercase',
});
export const name = style({ fontSize: '20px', fontWeight: 700 });
export const meta = style({
  display: 'flex',
  gap: space.md,
  flexWrap: 'wrap',
  alignItems: 'center',
  color: vars.color.textMuted,
  fontSize: '13.5px',
  marginTop: space.xs,
});
export const grid = style({
  display: 'grid',
  gap: space.lg,
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.md]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});
export const full = style({ '@media': { [media.md]: { gridColumn: '1 / -1' } } });
export const actions = style({ display: 'flex', gap: space.sm, justifyContent: 'flex-end', flexWrap: 'wrap' });
export const toastList = style({ margin: `${space.xs} 0 0`, paddingLeft: '18px' });
export const zoneNow = style({ margin: `${space.sm} 0 0`, color: vars.color.textMuted, fontSize: '13.5px' });
export const zoneField = style({ maxWidth: '32rem' });
