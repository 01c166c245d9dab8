/**
 * The viewers' messages for developers, in English and in one place: the `message` of a thrown
 * Error and of a `ViewerError` (which `mk-viewer-failed`'s detail carries, and which an English
 * page shows beside the error's code). Words the viewers show to users in every language are in
 * the dictionary (viewer-strings.ts). No three.js and no Lit here: the element, the download and
 * the renderers all import it.
 */
export const viewerMessages = {
  notShownYet: 'Nothing is shown yet: wait for mk-viewer-loaded before taking a screenshot.',
  cannotShow: (why: string) => `This file cannot be shown: ${why}`,
  canvasEncode: 'The canvas could not be encoded.',
  network: (why: string) => `The file could not be downloaded (${why}). Check the connection and the address.`,
  http: (status: number) =>
    `The file could not be downloaded: the server answered ${status}.${status === 403 ? ' The link may have expired; get a fresh one from the job.' : status === 404 ? ' Check the address.' : ''}`,
  webglModel: (why: string) => `WebGL is not available in this browser, so the 3D model cannot be shown (${why}).`,
  webglScene: (why: string) => `WebGL is not available in this browser, so the scene cannot be shown (${why}).`,
  decoderMissing: (why: string) =>
    `This model needs a decoder (Draco or KTX2) that could not be loaded (${why}). Serve three's decoder files with your site, or set draco-path / ktx2-path on <glb-viewer> to a folder that has them.`,
  modelUnreadable: (why: string) => `The model could not be read: ${why}`,
  modelEmpty: 'The model has no visible geometry.',
  gltf1: 'This is a glTF 1.0 binary; only glTF 2.0 (GLB) files are supported. Convert it with a current exporter.',
  glbCut: 'The GLB file is cut short; download it again.',
  glbNoJson: 'The GLB file has no JSON chunk; it is damaged.',
  notGlb: 'This file is not a GLB (glTF 2.0 binary) model.',
  glbJson: "The model's glTF JSON cannot be read; the file is damaged.",
  sceneTimeout:
    'The scene did not finish loading within a minute; the file may be damaged or too large for this device.',
  sceneNoFrame: 'The scene loaded but never finished its first frame.',
  sceneUnreadable: (why: string) => `The splat scene could not be read: ${why}`,
  spzDecoderDownload: (why: string) =>
    `The .spz decoder could not be downloaded (${why}); check the connection and try again.`,
};

/** The text of whatever was thrown. */
export function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
