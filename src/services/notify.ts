import { Subject, type Observable } from 'rxjs';

// Services say what happened; the React layer turns it into toasts. Keeps react-toastify out of the service layer.
export type NoticeLevel = 'success' | 'info' | 'warning' | 'error';
export interface AppNotice {
  level: NoticeLevel;
  message: string;
  /** Same key = one toast at a time (load failures of several streams at once). */
  key?: string;
}

export interface Notifier {
  notices$: Observable<AppNotice>;
  notify(n: AppNotice): void;
}

export function createNotifier(): Notifier {
  const s = new Subject<AppNotice>();
  return { notices$: s.asObservable(), notify: (n) => s.next(n) };
}
