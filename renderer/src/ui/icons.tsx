// Inline SVG icons (no icon font or emoji: they must render on every system font set).
const PATHS = {
  trash: 'M3 4h10M6.5 4V2.5h3V4M4.5 4l.6 9.5h5.8l.6-9.5M7 6.5v5M9 6.5v5',
  pencil: 'M10.5 2.5l3 3L6 13H3v-3zM9 4l3 3',
  close: 'M4 4l8 8M12 4l-8 8',
  menu: 'M2.5 4h11M2.5 8h11M2.5 12h11',
  warning: 'M8 2L14.5 13.5h-13zM8 6.5V10M8 11.6v.4',
  /** A document with a corner: an MCP resource. */
  resource: 'M4 2h5.5L12 4.5V14H4zM9.5 2v2.5H12M6 7.5h4M6 10h4M6 12h2.5',
  /** A pushpin: a chat kept on top. */
  pin: 'M6 2h4M7 2v4L4.5 9h7L9 6V2M8 9v5',
  /** A box with a lid: archive. */
  archive: 'M2 3h12v3H2zM3 6v7.5h10V6M6.5 8.5h3',
  gear: 'M8 5.5a2.5 2.5 0 1 0 0 5a2.5 2.5 0 0 0 0-5zM8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon(props: { name: IconName; size?: number }) {
  return (
    <svg
      width={props.size ?? 14}
      height={props.size ?? 14}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      stroke-width="1.4"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      class="icon-svg"
    >
      <path d={PATHS[props.name]} />
    </svg>
  );
}
