// Inline icons (stroke follows currentColor); always decorative: the control carries the name.
const paths = {
  chat: 'M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12Z',
  mic: 'M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3Zm7 9a7 7 0 0 1-14 0m7 7v3',
  stop: 'M7 7h10v10H7z',
  send: 'M4 12 20 4l-6 16-3-7-7-1Z',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  retry: 'M4 4v6h6M20 20v-6h-6M5.5 15a7 7 0 0 0 12.3 2M18.5 9A7 7 0 0 0 6.2 7',
  globe: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm-9 9h18M12 3c2.5 2.6 3.7 5.6 3.7 9s-1.2 6.4-3.7 9c-2.5-2.6-3.7-5.6-3.7-9S9.5 5.6 12 3Z',
  search: 'M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14Zm9 16-4-4',
  arrow: 'M5 12h14m-6-6 6 6-6 6',
  check: 'm5 12 5 5 9-10',
  close: 'M6 6l12 12M18 6 6 18',
  external: 'M14 4h6v6m0-6-9 9M18 14v6H4V6h6',
  plus: 'M12 5v14M5 12h14',
  warning: 'M12 4 2.5 20h19L12 4Zm0 6v4m0 3v.5',
  doc: 'M7 3h7l5 5v13H7zM14 3v5h5',
  partial: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm0 0v18m0-13.5 4.5-2.5M12 10l7-4.3M12 15.5l8-4M12 20l5.6-2.4',
  gap: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm-4 9h8',
  lock: 'M6 11h12v10H6zM8.5 11V7.5a3.5 3.5 0 0 1 7 0V11',
  print: 'M7 9V3h10v6M7 18H4v-9h16v9h-3M7 14h10v7H7z',
  compare: 'M4 7h16M4 12h10M4 17h7m8-2 2 2-2 2m0-4v4',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={paths[name]} />
    </svg>
  );
}
