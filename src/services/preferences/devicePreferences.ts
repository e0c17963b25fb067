import { BehaviorSubject, type Observable } from 'rxjs';

// Preferences of this device (not of the account): kept in localStorage under one key, like the theme. A phone and
// a desktop of the same trader may well want different noise levels.
export interface DevicePreferences {
  /** A toast for each arbitrage opportunity. Off by default: the opportunities list shows them without interrupting. */
  opportunityToasts: boolean;
}

export const DEVICE_PREFERENCES_KEY = 'preferences';
export const DEFAULT_PREFERENCES: DevicePreferences = { opportunityToasts: false };

export interface PreferencesService {
  preferences$: Observable<DevicePreferences>;
  readonly current: DevicePreferences;
  update(patch: Partial<DevicePreferences>): void;
}

/** Only known keys of the right type survive a read: storage is user-editable and may hold an older shape. */
function parse(raw: string | null): DevicePreferences {
  try {
    const v: unknown = raw ? JSON.parse(raw) : null;
    const o = v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
    return {
      opportunityToasts:
        typeof o.opportunityToasts === 'boolean' ? o.opportunityToasts : DEFAULT_PREFERENCES.opportunityToasts,
    };
  } catch {
    return { ...DEFAULT_PREFERENCES };
  }
}

export function createPreferencesService(
  storage: Pick<Storage, 'getItem' | 'setItem'> | null = typeof localStorage === 'undefined' ? null : localStorage,
): PreferencesService {
  const read = () => {
    try {
      return parse(storage?.getItem(DEVICE_PREFERENCES_KEY) ?? null);
    } catch {
      return { ...DEFAULT_PREFERENCES };
    }
  };
  const subject = new BehaviorSubject<DevicePreferences>(read());
  return {
    preferences$: subject.asObservable(),
    get current() {
      return subject.value;
    },
    update(patch) {
      const next = { ...subject.value, ...patch };
      try {
        storage?.setItem(DEVICE_PREFERENCES_KEY, JSON.stringify(next));
      } catch {
        // Private mode without storage: the choice lasts for this visit only.
      }
      subject.next(next);
    },
  };
}
