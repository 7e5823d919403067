/** A few inline SVG icons (no icon font, STYLE.md habit 10); drawn with currentColor. */
const PATHS = {
  menu: 'M3 6h18M3 12h18M3 18h18',
  close: 'M6 6l12 12M18 6L6 18',
  bell: 'M6 8a6 6 0 1112 0c0 7 3 8 3 8H3s3-1 3-8M10 20a2 2 0 004 0',
  user: 'M12 12a4 4 0 100-8 4 4 0 000 8zM4 21a8 8 0 0116 0',
  chevron: 'M9 6l6 6-6 6',
  chevronDown: 'M6 9l6 6 6-6',
  refresh: 'M20 11a8 8 0 10-2.3 5.7M20 5v6h-6',
  plus: 'M12 5v14M5 12h14',
} as const;

export type IconName = keyof typeof PATHS;

/**
 * `<Icon name="bell" />`: a stroke icon, hidden from assistive technology. `d` draws a path of a
 * lazy chunk's own set instead (the menu's icons live with the shell, out of the login page):
 * `<Icon d="M3 12h18" />`.
 */
export function Icon({ name, d, size = 18 }: { name?: IconName; d?: string; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"
      stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" class="icon">
      <path d={d ?? PATHS[name!]} />
    </svg>
  );
}
