import { create } from 'qrcode';

/** Light modules around the code, as the QR specification asks, so cameras find its edges. */
const QUIET_ZONE = 4;

/** The SVG path of the dark modules of `text`'s QR code, one unit a module. */
function qrPath(text: string): { size: number; path: string } {
  const { modules } = create(text, { errorCorrectionLevel: 'L' });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row += 1) {
    for (let column = 0; column < modules.size; column += 1) {
      if (modules.data[row * modules.size + column]) {
        parts.push(`M${column + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`);
      }
    }
  }
  return { size: modules.size + 2 * QUIET_ZONE, path: parts.join('') };
}

/**
 * A QR code drawn in the page as an SVG path (no image, no data: URI, nothing injected as HTML:
 * the CSP stays strict), big enough for a phone's camera.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { size, path } = qrPath(text);
  return (
    <svg
      class="qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width={size * 6}
      height={size * 6}
      shape-rendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
