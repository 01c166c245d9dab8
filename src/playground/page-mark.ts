/**
 * What the playground changes on the page itself: a mark above every element ("Playground: nothing
 * is charged", in the elements' languages, from the page's own stylesheet, so the elements carry
 * nothing for it), and the worker's endpoint set on every element that does not name its own.
 */

export const TAGS = ['video-to-3d-uploader', 'headshot-studio', 'model-generator', 'bg-tool', 'credit-badge'];

/** "Playground: nothing is charged", in the elements' languages. */
const MARK: Record<string, string> = {
  en: 'Playground: nothing is charged',
  de: 'Spielwiese: es wird nichts berechnet',
  es: 'Zona de pruebas: no se cobra nada',
  fr: 'Bac à sable : rien n’est facturé',
  it: 'Area di prova: non viene addebitato nulla',
  nl: 'Speeltuin: er wordt niets in rekening gebracht',
  pl: 'Piaskownica: nic nie jest pobierane',
  'pt-BR': 'Ambiente de testes: nada é cobrado',
  ja: 'プレイグラウンド：料金は発生しません',
  ko: '플레이그라운드: 요금이 청구되지 않습니다',
  'zh-Hans': '演练场：不收取任何费用',
  ar: 'بيئة تجريبية: لا يتم خصم أي رصيد',
};

/** The mark above every element: the page's own stylesheet, so the elements carry nothing for it. */
function markStyles(): string {
  const hosts = TAGS.filter((t) => t !== 'credit-badge').join(', ');
  // The badge is a small inline pill: it gets the first word ("Playground") beside it.
  const short = (text: string) => text.split(/\s*[:：]/)[0]!;
  const pill = `padding: 2px 10px;
      border-radius: 999px;
      font: 600 12px/1.6 system-ui, sans-serif;
      color: #6b4400;
      background: #fff1cc;
      border: 1px solid #f0c36a;`;
  return [
    `:is(${hosts})::before {
      content: ${JSON.stringify(MARK['en'])};
      display: block;
      inline-size: fit-content;
      margin-block-end: 6px;
      ${pill}
    }`,
    `credit-badge::before {
      content: ${JSON.stringify(short(MARK['en']!))};
      display: inline-block;
      vertical-align: middle;
      margin-inline-end: 6px;
      ${pill}
    }`,
    `@media (prefers-color-scheme: dark) {
      :is(${hosts}, credit-badge)::before { color: #ffe3a3; background: #3d2c06; border-color: #8a6414; }
    }`,
    ...Object.entries(MARK)
      .filter(([code]) => code !== 'en')
      .flatMap(([code, text]) => [
        `:is(${hosts}):lang(${code})::before { content: ${JSON.stringify(text)}; }`,
        `credit-badge:lang(${code})::before { content: ${JSON.stringify(short(text))}; }`,
      ]),
  ].join('\n');
}

export function addMark(): void {
  if (document.getElementById('mediakit-playground-mark')) return;
  const style = document.createElement('style');
  style.id = 'mediakit-playground-mark';
  style.textContent = markStyles();
  document.head.append(style);
}

/** Points every element without its own `endpoint` at the worker's (now and as elements are added). */
export function followEndpoint(endpoint: string): void {
  const point = (root: ParentNode) => {
    for (const el of root.querySelectorAll(TAGS.join(','))) {
      if (!el.hasAttribute('endpoint')) el.setAttribute('endpoint', endpoint);
    }
  };
  point(document);
  new MutationObserver((records) => {
    for (const r of records)
      for (const node of r.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (TAGS.includes(node.localName) && !node.hasAttribute('endpoint')) node.setAttribute('endpoint', endpoint);
        point(node);
      }
  }).observe(document.documentElement, { childList: true, subtree: true });
}
