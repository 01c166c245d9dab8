'use client';
import { useState } from 'react';
// The generated @lit/react wrapper; importing it on the server does not throw, so the page is
// rendered there as well (no dynamic(..., { ssr: false })).
import { VideoTo3dUploader } from '@mediakit/elements/react/video-to-3d-uploader.js';

export default function Upload() {
  const [job, setJob] = useState(null);
  return (
    <>
      <VideoTo3dUploader endpoint="/mediakit" onMkSucceeded={(e) => setJob(e.detail)} />
      {job && <p data-scene-ready>Scene ready: job {job.id}</p>}
    </>
  );
}
