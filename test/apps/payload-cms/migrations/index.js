// The schema for production (`next start`: Payload pushes no schema there). Written by
// `payload migrate:create initial` from this config (TypeScript types removed); after changing a
// collection, run it again: PAYLOAD_CONFIG_PATH=payload.config.js npx payload migrate:create <name>
// (the media.resultKey one is written by hand in the same form).
import * as initial from './20261124_192249_initial.js';
import * as resultKey from './20261128_070000_media_result_key.js';

export const migrations = [
  { up: initial.up, down: initial.down, name: '20261124_192249_initial' },
  { up: resultKey.up, down: resultKey.down, name: '20261128_070000_media_result_key' },
];
