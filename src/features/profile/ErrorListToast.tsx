import * as styles from './profile.css';

/** One toast for several messages: a heading and the lines. */
export function ErrorListToast({ heading, lines }: { heading: string; lines: string[] }) {
  return (
    <div>
      <strong>{heading}</strong>
      <ul className={styles.toastList}>
        {lines.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
    </div>
  );
}
