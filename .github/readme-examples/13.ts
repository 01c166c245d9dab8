// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.
export {};
// After the page reports a kept result ({ id, url, name, type }), copy it into your CMS.
app.post('/api/save-model', requireUser, async (req, res) => {
  const { url, name, type } = req.body;
  if (!url.startsWith('/mediakit/results/')) return res.status(400).end();
  // 'public' access: the URL is enough. 'owner' access: forward the user's cookies, or send a
  // token your backend mints for the same subject: await proxy.mintToken({ subject, capabilities: [], budget: 0 }).
  const file = await proxy.fetch(new Request(new URL(url, 'https://shop.example'), { headers: { cookie: req.headers.cookie ?? '' } }));
  if (!file.ok) return res.status(404).end();
  const asset = await cms.media.upload({ name, type, body: file.body }); // streams
  res.json({ asset: asset.id });
});
