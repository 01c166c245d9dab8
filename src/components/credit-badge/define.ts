import { CreditBadge } from './credit-badge.js';

CreditBadge.define('credit-badge');
