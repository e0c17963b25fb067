import type { ButtonHTMLAttributes, Ref } from 'react';
import * as styles from './ui.css';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof styles.button;
  small?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({ variant = 'primary', small, className, type = 'button', ...rest }: ButtonProps) {
  const cls = [styles.button[variant], small ? styles.buttonSmall : '', className ?? ''].filter(Boolean).join(' ');
  return <button type={type} className={cls} {...rest} />;
}
