// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.
export {};
import { mediakitDev } from '@mediakit/elements/dev';

export default { plugins: [mediakitDev()] };
