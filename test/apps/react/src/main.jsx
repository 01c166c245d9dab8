import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
// The @lit/react wrapper generated from custom-elements.json: typed props and onMk… events.
import { VideoTo3dUploader } from '@mediakit/elements/react/video-to-3d-uploader.js';

function App() {
  const [job, setJob] = useState(null);
  return (
    <main>
      <h1>Turn a walkthrough video into a 3D scene</h1>
      <VideoTo3dUploader endpoint="/mediakit" onMkJobSucceeded={(e) => setJob(e.detail)} />
      {job && <p data-scene-ready>Scene ready: job {job.id ?? job.job?.id}</p>}
    </main>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
