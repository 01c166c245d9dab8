// A page of its own (an iframe) with one <model-generator> on /mk-model, for the reload test: the
// frame's removal is a real page going away (its locks released, its polling stopped).
import '../../src/components/model-generator/define.js';

const state = {
  statuses: [] as string[],
  el: undefined as HTMLElement | undefined,
  succeeded: [] as { whileAway: boolean; id: string }[],
};
const el = document.createElement('model-generator');
el.setAttribute('endpoint', '/mk-model');
el.setAttribute('mode', 'prompt');
el.setAttribute('quality', 'high');
el.addEventListener('mk-succeeded', (e) =>
  state.succeeded.push({ whileAway: e.detail.whileAway ?? false, id: e.detail.id ?? '' }),
);
document.body.append(el);
state.el = el;
setInterval(() => {
  if (state.statuses.at(-1) !== el.status) state.statuses.push(el.status);
}, 10);
Object.assign(window, { page: state });
