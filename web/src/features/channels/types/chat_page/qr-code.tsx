import { encode } from 'uqr';

/**
 * A QR code of `value` as SVG squares (no HTML injected): printed on a counter or a flyer, it opens the chat page.
 * The code's own white border is kept, so it scans on any background.
 */
export function QrCode({ value, label, size = 160 }: { value: string; label: string; size?: number }) {
  const { data } = encode(value, { border: 2 });
  const n = data.length;
  const cells: string[] = [];
  data.forEach((row, y) => {
    row.forEach((on, x) => {
      if (on) cells.push(`M${x} ${y}h1v1h-1z`);
    });
  });
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${n} ${n}`}
      shapeRendering="crispEdges"
      data-testid="chat-page-qr"
    >
      <rect width={n} height={n} fill="#fff" />
      <path d={cells.join('')} fill="#000" />
    </svg>
  );
}
