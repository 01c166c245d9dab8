// Each element's events carry that element's detail in the types a page reads: `addEventListener`
// on the element's class, the React wrappers' `onMk…` props and the tags in React's JSX
// (events/element-events.ts; the Svelte and Vue typings come from the same generator and are checked
// by scripts/apps.mjs). The page-wide map keeps promising only what every element sends. Each probe
// is a module type-checked with the project's settings, as a user's file would be.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import ts from 'typescript';

const root = new URL('../..', import.meta.url).pathname;
const dir = join(root, 'test/lint');

/** The probes: each file's code, checked together in one program. */
const PROBES: Record<string, string> = {
  'bg-tool-listener.ts': `
import '../../src/elements/bg-tool.js';
const tool = document.querySelector('bg-tool')!;
tool.addEventListener('mk-succeeded', (e) => {
  const size: number = e.detail.blob.size;
  const format: 'png' | 'jpg' = e.detail.format;
  console.log(size, format, e.detail.width, e.detail.charged);
});
tool.addEventListener('mk-failed', (e) => console.log(e.detail.reason, e.detail.refunded));
tool.addEventListener('click', (e) => console.log(e.clientX));
`,
  'uploader-blob.ts': `
import '../../src/elements/video-to-3d-uploader.js';
const uploader = document.querySelector('video-to-3d-uploader')!;
uploader.addEventListener('mk-succeeded', (e) => console.log(e.detail.blob));
`,
  'uploader-listener.ts': `
import '../../src/elements/video-to-3d-uploader.js';
const uploader = document.querySelector('video-to-3d-uploader')!;
uploader.addEventListener('mk-succeeded', (e) => {
  const id: string = e.detail.id;
  const away: boolean = e.detail.whileAway;
  console.log(id, away, e.detail.job?.output);
});
`,
  'model-listener.ts': `
import '../../src/elements/model-generator.js';
const generator = document.querySelector('model-generator')!;
generator.addEventListener('mk-succeeded', (e) => {
  const url: string = e.detail.model.url;
  const id: string = e.detail.id;
  console.log(url, id);
});
`,
  'page-wide-id.ts': `
import '../../src/elements/video-to-3d-uploader.js';
document.addEventListener('mk-succeeded', (e) => {
  const id: string = e.detail.id;
  console.log(id);
});
`,
  'react-wrappers.tsx': `
import { BgTool } from '../../src/react/bg-tool.js';
import { VideoTo3dUploader } from '../../src/react/video-to-3d-uploader.js';
export const Tool = () => <BgTool onMkSucceeded={(e) => console.log(e.detail.blob.size)} />;
export const Upload = ({ onScene }: { onScene: (id: string) => void }) => (
  <VideoTo3dUploader onMkSucceeded={(e) => onScene(e.detail.id)} />
);
`,
  'react-wrapper-blob.tsx': `
import { VideoTo3dUploader } from '../../src/react/video-to-3d-uploader.js';
export const Upload = () => <VideoTo3dUploader onMkSucceeded={(e) => console.log(e.detail.blob)} />;
`,
  'react-jsx.tsx': `
import type {} from '../../src/types/react-jsx.js';
import '../../src/elements/bg-tool.js';
import '../../src/elements/headshot-studio.js';
export const Tool = () => <bg-tool onmk-succeeded={(e) => console.log(e.detail.blob.size)} />;
export const Studio = () => <headshot-studio onmk-succeeded={(e) => console.log(e.detail.headshots.length)} />;
`,
  'react-jsx-blob.tsx': `
import type {} from '../../src/types/react-jsx.js';
import '../../src/elements/headshot-studio.js';
export const Studio = () => <headshot-studio onmk-succeeded={(e) => console.log(e.detail.blob)} />;
`,
};

/**
 * A page that only imports `define.js` (every tag), checked in a program of its own: in the one above
 * the element entries' augmentations are already loaded by the other probes.
 */
const DEFINE_ONLY: Record<string, string> = {
  'define-listener.ts': `
import '../../src/define.js';
document.querySelector('bg-tool')!.addEventListener('mk-succeeded', (e) => console.log(e.detail.blob.size));
document.querySelector('video-to-3d-uploader')!.addEventListener('mk-succeeded', (e) => {
  const id: string = e.detail.id;
  console.log(id);
});
`,
};

/** Each probe's errors, as `line: message`. */
const errors = new Map<string, string[]>();

before(() => {
  check(PROBES);
  check(DEFINE_ONLY);
});

function check(probes: Record<string, string>): void {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    },
  )!;
  const files = new Map(Object.entries(probes).map(([name, code]) => [join(dir, `.probe-${name}`), code]));
  const options = { ...config.options, jsx: ts.JsxEmit.ReactJSX, noEmit: true };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => files.has(f) || fileExists(f);
  host.readFile = (f) => files.get(f) ?? readFile(f);
  host.getSourceFile = (f, language, ...rest) =>
    files.has(f) ? ts.createSourceFile(f, files.get(f)!, language) : getSourceFile(f, language, ...rest);
  const program = ts.createProgram([...files.keys()], options, host);
  for (const [file] of files) {
    const source = program.getSourceFile(file)!;
    const found = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
      (d) =>
        `${source.getLineAndCharacterOfPosition(d.start ?? 0).line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
    errors.set(file.slice(dir.length + '/.probe-'.length), found);
  }
}

describe("element events: a listener on an element gets that element's detail", () => {
  it("<bg-tool>'s mk-succeeded has its image (blob, format, size) and mk-failed the reason, no optional field", () => {
    assert.deepEqual(errors.get('bg-tool-listener.ts'), []);
  });

  it("the uploader's mk-succeeded has no image: reading detail.blob is refused", () => {
    assert.deepEqual(errors.get('uploader-blob.ts'), [
      "3: Property 'blob' does not exist on type 'SceneSucceededDetail'.",
    ]);
  });

  it("the uploader's mk-succeeded has the job's id (a string, required) and whileAway", () => {
    assert.deepEqual(errors.get('uploader-listener.ts'), []);
  });

  it("<model-generator>'s mk-succeeded has the model's URL and the job's id", () => {
    assert.deepEqual(errors.get('model-listener.ts'), []);
  });

  it('a page-wide listener still gets the job id as optional (any element may have sent it)', () => {
    const found = errors.get('page-wide-id.ts')!;
    assert.equal(found.length, 1, found.join('\n'));
    assert.match(found[0]!, /^3: Type 'string \| undefined' is not assignable to type 'string'/);
  });

  it("the React wrappers' onMkSucceeded gets each element's detail", () => {
    assert.deepEqual(errors.get('react-wrappers.tsx'), []);
    assert.deepEqual(errors.get('react-wrapper-blob.tsx'), [
      "2: Property 'blob' does not exist on type 'SceneSucceededDetail'.",
    ]);
  });

  it("a page that imports only define.js gets each element's detail too", () => {
    assert.deepEqual(errors.get('define-listener.ts'), []);
  });

  it("the tags in React's JSX get each element's detail", () => {
    assert.deepEqual(errors.get('react-jsx.tsx'), []);
    assert.deepEqual(errors.get('react-jsx-blob.tsx'), [
      "3: Property 'blob' does not exist on type 'HeadshotsSucceededDetail'.",
    ]);
  });
});
