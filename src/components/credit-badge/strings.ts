/** English strings of <credit-badge>. Other languages: src/translations/, loaded on first use. */
import type { Formatter } from '../../internal/format.js';

export const badgeStrings = {
  cbLabel: 'Credits',
  cbSessionLeft: (p: { n: string; count: number }, f: Formatter) =>
    `${p.n} ${f.plural(p.count) === 'one' ? 'credit' : 'credits'} left`,
  cbAccountLeft: (p: { n: string; count: number }, f: Formatter) =>
    `${p.n} ${f.plural(p.count) === 'one' ? 'credit' : 'credits'} in the account`,
  cbSessionTitle: 'Credits this session may still spend',
  cbAccountTitle: "The site's account balance",
  cbLoading: 'Loading credits…',
  cbOffline: 'offline',
  cbOfflineTitle: 'Offline: this is the last known number; it updates when the connection is back.',
  cbError: 'Credits unavailable',
  cbRetry: 'Retry',
  cbLow: 'low',
  cbLowSay: (p: { n: number }, f: Formatter) => `Credits are running low: ${f.number(p.n)} left.`,
};

export type BadgeStrings = typeof badgeStrings;
