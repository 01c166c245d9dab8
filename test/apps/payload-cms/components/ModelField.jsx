'use client';
// The admin component of products.model: <model-generator> in field mode (a compact box; Create
// opens the full tool in a dialog) bound to the JSON field through Payload's useField. Files are
// kept in the media collection by the assetHandler, so the saved value holds lasting URLs and
// re-opening the document shows the model without calling the API.
import { useRef } from 'react';
import { FieldLabel, useField } from '@payloadcms/ui';
import { ModelGenerator } from '@mediakit/elements/react/model-generator.js';

/** Uploads one committed file to the media collection (signed in: the admin's cookie goes along). */
async function keepInMedia(blob, { filename, type }) {
  const form = new FormData();
  form.append('file', new File([blob], filename, { type }));
  form.append('_payload', JSON.stringify({ alt: `Generated ${filename}` }));
  const response = await fetch('/api/media', { method: 'POST', body: form, credentials: 'include' });
  if (!response.ok) throw new Error(`The media library refused ${filename} (${response.status}).`);
  const { doc } = await response.json();
  return { id: String(doc.id), url: doc.url };
}

export function ModelField({ path, field }) {
  const { value, setValue } = useField({ path });
  // The element's own string for the object it handed us last, so setting it back is a no-op.
  const last = useRef({ object: undefined, json: '' });
  const json = value == null ? '' : value === last.current.object ? last.current.json : JSON.stringify(value);
  const take = (event) => {
    const next = event.target.value;
    const object = next ? JSON.parse(next) : null;
    last.current = { object, json: next };
    setValue(object);
  };
  return (
    <div className="field-type json" style={{ marginBottom: 'var(--spacing-field, 1.5rem)' }}>
      <FieldLabel label={field?.label ?? 'Model'} path={path} />
      <ModelGenerator
        appearance="field"
        endpoint="/mediakit"
        mode="prompt"
        quality="fast"
        value={json}
        assetHandler={keepInMedia}
        onInput={take}
        onChange={take}
      />
    </div>
  );
}
