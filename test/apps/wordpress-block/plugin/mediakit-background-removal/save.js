// What the post content keeps besides the attribute: the kept image as plain HTML, so the front end
// shows it with no script. The value itself lives in the block's comment delimiter.
import { useBlockProps } from '@wordpress/block-editor';

export function keptAsset(value) {
  try {
    const parsed = value ? JSON.parse(value) : null;
    return parsed?.status === 'succeeded' && parsed.asset?.url ? parsed : null;
  } catch {
    return null;
  }
}

export default function save({ attributes }) {
  const result = keptAsset(attributes.value);
  if (!result) return null;
  return (
    <figure {...useBlockProps.save({ className: 'mediakit-cut-out' })}>
      <img
        src={result.asset.url}
        alt=""
        width={result.width}
        height={result.height}
        className={result.asset.id ? `wp-image-${result.asset.id}` : undefined}
      />
    </figure>
  );
}
