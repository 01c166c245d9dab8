import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
// The @lit/react wrapper generated from custom-elements.json: typed props, onMk… events, and the
// value's controlled pair (`value` in, `onChange` out), as a form field in a CMS would bind it.
import { VideoTo3dUploader } from '@mediakit/elements/react/video-to-3d-uploader.js';

function App() {
  const [value, setValue] = useState('');
  const [job, setJob] = useState(null);
  const saved = value ? JSON.parse(value) : null;
  return (
    <main>
      <h1>Turn a walkthrough video into a 3D scene</h1>
      <VideoTo3dUploader
        endpoint="/mediakit"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onMkSucceeded={(e) => setJob(e.detail)}
      />
      {job && saved?.status === 'succeeded' && saved.asset && (
        <p data-scene-ready>
          Scene kept at <a href={saved.asset.url}>{saved.asset.url}</a>
        </p>
      )}
    </main>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
