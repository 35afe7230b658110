/**
 * A risk's colour as a small square. Drawn as an SVG fill, not an inline style: the CSP allows no inline styles
 * (docs/security.md).
 */
export function ColorChip({ color }: { color: string | null | undefined }) {
  if (!color) return null;
  return (
    <svg className="color-chip" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <rect width="16" height="16" rx="3" fill={color} />
    </svg>
  );
}
