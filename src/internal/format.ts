/**
 * Numbers, bytes, durations, credits and "time left" through `Intl`, for one locale. Terms in the
 * dictionaries receive one of these, so translations never format numbers by hand.
 */
// Binary units with the usual names, as the API's limits are written (12 MB = 12 x 1024 x 1024
// bytes): a file just over a limit never reads as the limit itself.
const KB = 1024;

export class Formatter {
  readonly locale: string;
  readonly #cache = new Map<string, Intl.NumberFormat>();
  #plural: Intl.PluralRules | undefined;

  constructor(locale: string) {
    this.locale = Intl.NumberFormat.supportedLocalesOf([locale]).length ? locale : 'en';
  }

  #nf(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
    let nf = this.#cache.get(key);
    if (!nf) this.#cache.set(key, (nf = new Intl.NumberFormat(this.locale, options)));
    return nf;
  }

  number(n: number): string {
    return this.#nf('n', {}).format(n);
  }

  /** 12 300 → "12K" (en), "12.300" stays long in de below 1 million: Intl decides. */
  compact(n: number): string {
    return this.#nf('c', { notation: 'compact', maximumFractionDigits: 1 }).format(n);
  }

  percent(fraction: number): string {
    return this.#nf('p', { style: 'percent', maximumFractionDigits: 0 }).format(fraction);
  }

  /** 1.5 MB, 820 kB, 12.6 MB (1024-based, like the API's limits). */
  bytes(n: number): string {
    const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
    let i = 0;
    let v = n;
    while (v >= KB && i < units.length - 1) {
      v /= KB;
      i++;
    }
    const unit = units[i]!;
    return this.#nf('b' + unit, {
      style: 'unit',
      unit,
      unitDisplay: 'short',
      maximumFractionDigits: v < 100 && i > 0 ? 1 : 0,
    }).format(v);
  }

  /** A length of time as the clock shows it: 0:42, 2:05, 1:02:05. */
  clock(seconds: number): string {
    const s = Math.max(0, Math.round(seconds));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const ss = String(s % 60).padStart(2, '0');
    return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
  }

  /** One unit, spelled out: "2 minutes", "2 Minuten". */
  unit(n: number, unit: 'second' | 'minute' | 'hour', display: 'long' | 'short' = 'long'): string {
    return this.#nf(`u${unit}${display}`, {
      style: 'unit',
      unit,
      unitDisplay: display,
      maximumFractionDigits: 0,
    }).format(n);
  }

  /** A rough duration for "about … left": seconds under a minute (by 5), minutes under two hours, then hours. */
  roughDuration(seconds: number): string {
    if (seconds < 60) return this.unit(Math.max(5, Math.ceil(seconds / 5) * 5), 'second');
    if (seconds < 7200) return this.unit(Math.round(seconds / 60), 'minute');
    return this.unit(Math.round(seconds / 3600), 'hour');
  }

  /** "JPG, PNG or WebP" (`disjunction`), "A, B and C" (`conjunction`), in the locale's words. */
  list(items: readonly string[], type: 'conjunction' | 'disjunction' = 'conjunction'): string {
    return new Intl.ListFormat(this.locale, { type }).format(items);
  }

  /**
   * Width × height ("1920×1080"), kept left to right inside right-to-left text (a first-strong
   * isolate): in Arabic the two numbers would otherwise swap places on screen.
   */
  dims(width: number, height: number): string {
    return `\u2068${this.number(width)}×${this.number(height)}\u2069`;
  }

  /** The plural category of n (for terms such as "1 credit" / "20 credits"). */
  plural(n: number): Intl.LDMLPluralRule {
    this.#plural ??= new Intl.PluralRules(this.locale);
    return this.#plural.select(n);
  }
}
