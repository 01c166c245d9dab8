// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.
export {};
const studio = document.querySelector('headshot-studio')!;
studio.assetHandler = async (blob, { filename }) => {
  const body = new FormData();
  body.append('file', blob, filename);
  const media = await (await fetch('/wp-json/wp/v2/media', { method: 'POST', body })).json();
  return { id: String(media.id), url: media.source_url };
};
