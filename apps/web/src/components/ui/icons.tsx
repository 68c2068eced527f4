import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement> & { size?: number };

function icon(paths: string[], displayName: string) {
  function Icon({ size = 16, ...props }: IconProps) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        {...props}
      >
        {paths.map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
    );
  }
  Icon.displayName = displayName;
  return Icon;
}

export const MenuIcon = icon(['M4 6h16', 'M4 12h16', 'M4 18h16'], 'MenuIcon');
export const CloseIcon = icon(['M6 6l12 12', 'M18 6L6 18'], 'CloseIcon');
export const ChevronLeftIcon = icon(['M15 18l-6-6 6-6'], 'ChevronLeftIcon');
export const ChevronRightIcon = icon(['M9 18l6-6-6-6'], 'ChevronRightIcon');
export const ChevronDownIcon = icon(['M6 9l6 6 6-6'], 'ChevronDownIcon');
export const SunIcon = icon(
  [
    'M12 4V2',
    'M12 22v-2',
    'M4.9 4.9 3.5 3.5',
    'M20.5 20.5l-1.4-1.4',
    'M4 12H2',
    'M22 12h-2',
    'M4.9 19.1l-1.4 1.4',
    'M20.5 3.5l-1.4 1.4',
    'M16 12a4 4 0 1 1-8 0 4 4 0 0 1 8 0z',
  ],
  'SunIcon',
);
export const MoonIcon = icon(['M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z'], 'MoonIcon');
export const GlobeIcon = icon(
  [
    'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z',
    'M3 12h18',
    'M12 3c2.5 2.7 3.7 5.7 3.7 9s-1.2 6.3-3.7 9c-2.5-2.7-3.7-5.7-3.7-9S9.5 5.7 12 3z',
  ],
  'GlobeIcon',
);
export const LogoutIcon = icon(
  ['M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3', 'M10 17l-5-5 5-5', 'M5 12h11'],
  'LogoutIcon',
);
export const DashboardIcon = icon(
  ['M4 13h6V4H4z', 'M14 20h6v-9h-6z', 'M14 8h6V4h-6z', 'M4 20h6v-3H4z'],
  'DashboardIcon',
);
export const ChartIcon = icon(['M4 20V4', 'M4 20h16', 'M8 15l4-5 3 3 5-6'], 'ChartIcon');
export const BotIcon = icon(
  [
    'M12 4v3',
    'M6 8h12a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2z',
    'M9 13h.01',
    'M15 13h.01',
    'M9.5 16.5h5',
  ],
  'BotIcon',
);
export const WalletIcon = icon(
  ['M4 7a2 2 0 0 1 2-2h12v4', 'M4 7v10a2 2 0 0 0 2 2h14V9H6a2 2 0 0 1-2-2z', 'M16 14h.01'],
  'WalletIcon',
);
export const LinkIcon = icon(
  ['M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1', 'M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1'],
  'LinkIcon',
);
export const SettingsIcon = icon(
  [
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
    'M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z',
  ],
  'SettingsIcon',
);
export const BellIcon = icon(
  ['M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9', 'M10.3 21a1.9 1.9 0 0 0 3.4 0'],
  'BellIcon',
);
export const ListIcon = icon(
  ['M9 6h11', 'M9 12h11', 'M9 18h11', 'M4 6h.01', 'M4 12h.01', 'M4 18h.01'],
  'ListIcon',
);
export const ReceiptIcon = icon(['M6 3h12v18l-3-2-3 2-3-2-3 2z', 'M9 8h6', 'M9 12h6'], 'ReceiptIcon');
export const ShieldIcon = icon(['M12 3l8 3v6c0 5-3.4 8-8 9-4.6-1-8-4-8-9V6z'], 'ShieldIcon');
export const GridIcon = icon(['M4 4h7v7H4z', 'M13 4h7v7h-7z', 'M4 13h7v7H4z', 'M13 13h7v7h-7z'], 'GridIcon');
export const ArrowUpIcon = icon(['M12 19V5', 'M5 12l7-7 7 7'], 'ArrowUpIcon');
export const ArrowDownIcon = icon(['M12 5v14', 'M19 12l-7 7-7-7'], 'ArrowDownIcon');
export const AlertIcon = icon(
  [
    'M12 9v4',
    'M12 17h.01',
    'M10.3 3.9 2.4 18a2 2 0 0 0 1.7 3h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z',
  ],
  'AlertIcon',
);
export const CheckIcon = icon(['M5 12l5 5L20 7'], 'CheckIcon');
export const InfoIcon = icon(['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 16v-4', 'M12 8h.01'], 'InfoIcon');
export const InboxIcon = icon(
  ['M22 12h-6l-2 3h-4l-2-3H2', 'M5.5 5h13L22 12v6a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2v-6z'],
  'InboxIcon',
);
export const RefreshIcon = icon(['M21 12a9 9 0 1 1-3-6.7L21 8', 'M21 3v5h-5'], 'RefreshIcon');
export const PlusIcon = icon(['M12 5v14', 'M5 12h14'], 'PlusIcon');
export const CopyIcon = icon(
  ['M9 9h10a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9a1 1 0 0 1-1-1V10a1 1 0 0 1 1-1z', 'M5 15H4V4h11v1'],
  'CopyIcon',
);
export const MailIcon = icon(['M3 6h18v12H3z', 'M3 7l9 6 9-6'], 'MailIcon');
