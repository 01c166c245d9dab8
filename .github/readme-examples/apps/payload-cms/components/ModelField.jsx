// test/apps/payload-cms/components/ModelField.jsx
'use client';
// products.model: <model-generator> in field mode, bound to the JSON field through useField.
import { useRef } from 'react';
import { FieldLabel, useField } from '@payloadcms/ui';
import { ModelGenerator } from '@mediakit/elements/react/model-generator.js';

/**
 * The media doc kept under a result file's key (another editor may have kept it already).
 * @param {string} key
 * @returns {Promise<{ id: number | string, url: string } | undefined>}
 */
async function findKept(key) {
  const query = `where[resultKey][equals]=${encodeURIComponent(key)}&limit=1&depth=0`;
  const response = await fetch(`/api/media?${query}`, { credentials: 'include' });
  if (!response.ok) throw new Error(`The media library could not be searched (${response.status}).`);
  return (await response.json()).docs[0];
}

/**
 * Keeps one committed file in the media collection, once per result: `key` is unique there.
 * @type {import('@mediakit/elements').AssetHandler}
 */
const keepInMedia = async (blob, { filename, type, key }) => {
  const kept = await findKept(key);
  if (kept) return { id: String(kept.id), url: kept.url };
  const form = new FormData();
  form.append('file', new File([blob], filename, { type }));
  form.append('_payload', JSON.stringify({ alt: `Generated ${filename}`, resultKey: key }));
  const response = await fetch('/api/media', { method: 'POST', body: form, credentials: 'include' });
  if (response.ok) {
    const { doc } = await response.json();
    return { id: String(doc.id), url: doc.url };
  }
  // Another editor stored this file at the same moment (409, or the unique index's 400): use theirs.
  const theirs = response.status === 409 || response.status === 400 ? await findKept(key) : undefined;
  if (theirs) return { id: String(theirs.id), url: theirs.url };
  throw new Error(`The media library refused ${filename} (${response.status}).`);
};

/** @param {{ path: string, field?: { label?: unknown } }} props */
export function ModelField({ path, field }) {
  const { value, setValue } = useField({ path });
  // The element's own string for the object it handed us last, so setting it back is a no-op.
  const last = useRef({ object: undefined, json: '' });
  const json = value == null ? '' : value === last.current.object ? last.current.json : JSON.stringify(value);
  // Both events: `input` stores a running job's value (saved mid-job, it follows the job on
  // reopening, in any editor's browser); `change` the kept result.
  /** @param {Event} event */
  const take = (event) => {
    const next = /** @type {HTMLElement & { value: string }} */ (event.target).value;
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
