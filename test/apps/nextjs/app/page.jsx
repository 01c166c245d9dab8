import Upload from './upload.jsx';

// A server component: the page around the element renders on the server.
export default function Page() {
  return (
    <main>
      <h1>Turn a walkthrough video into a 3D scene</h1>
      <Upload />
    </main>
  );
}
