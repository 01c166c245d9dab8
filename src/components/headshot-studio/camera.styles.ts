import { css } from 'lit';

/** The live camera's rules (its frame, framing guide and buttons), added when camera.ts loads. */
export const cameraStyles = css`
  .camera {
    display: grid;
    gap: calc(var(--_space) * 2);
    min-inline-size: 0;
  }
  .camera .frame {
    position: relative;
    inline-size: min(100%, 420px);
    aspect-ratio: 3 / 4;
    justify-self: center;
    border-radius: var(--_radius);
    overflow: hidden;
    background: #111;
  }
  .camera video {
    position: absolute;
    inset: 0;
    inline-size: 100%;
    block-size: 100%;
    object-fit: cover;
    /* A selfie preview reads like a mirror; the photo taken is not mirrored. */
    transform: scaleX(-1);
  }
  .guide {
    position: absolute;
    inset: 0;
    inline-size: 100%;
    block-size: 100%;
    fill: none;
    stroke: #fff;
    stroke-width: 2.5;
    stroke-dasharray: 8 6;
  }
  .guide .shade {
    fill: rgb(0 0 0 / 0.35);
    stroke: none;
  }
  .camera-wait {
    position: absolute;
    inset: auto 0 0;
    padding: var(--_space);
    color: #fff;
    text-align: center;
  }
  .camera > .muted {
    text-align: center;
  }
  .camera .actions {
    justify-content: center;
  }
`;
