// A page of its own (an iframe, as a second tab would be) that spends one credit on /mk-badge:
// its answer reaches the first page's <credit-badge> only through the credit ledger's channel.
import { MediaClient } from '../../src/client/media-client.js';
import { photo } from '../fixtures/browser.js';

const client = MediaClient.for('/mk-badge');
Object.assign(window, {
  page: {
    charge: async () => (await client.imageTool({ image: await photo(64, 64), size: 'preview' })).credits_remaining,
  },
});
