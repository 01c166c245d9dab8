// From README.md, extracted by scripts/readme.mjs: edit the README, not this file.
export {};
const generator = document.querySelector('model-generator')!;
generator.addEventListener('change', () => {
  void fetch('/api/products/42', { method: 'PATCH', body: JSON.stringify({ model: generator.value }) });
});
// Tomorrow, on another page: the model shows again, nothing is generated or charged.
generator.value = savedJson;
