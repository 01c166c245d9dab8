// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.
export {};
import { S3Client } from '@aws-sdk/client-s3';
import { s3ResultStore } from '@mediakit/elements/proxy/s3';

const results = {
  store: s3ResultStore({
    client: new S3Client({ region: 'eu-west-1' }),
    bucket: 'shop-kept-results',
    prefix: 'kept/',
    // Optional: a public bucket or a CDN in front of it. Kept results then answer this URL, and
    // the objects carry `Cache-Control: public, max-age=31536000, immutable`.
    publicBaseUrl: 'https://cdn.shop.example/kept',
  }),
};
