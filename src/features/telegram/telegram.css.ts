import { style } from '@vanilla-extract/css';
import { radius, space, vars } from '../../styles/theme.css';

/** The command to send, selectable in one tap and wrapped rather than scrolled on a phone. */
export const code = style({
  fontFamily: 'ui-monospace, monospace',
  fontSize: '15px',
  padding: `${space.sm} ${space.md}`,
  background: vars.color.surfaceHover,
  borderRadius: radius.md,
  overflowWrap: 'anywhere',
  userSelect: 'all',
  alignSelf: 'flex-start',
  maxWidth: '100%',
});
