// The sidebar's sections. The server serves the dashboard for these paths (server/surfaces/home/
// dashboard-paths.ts lists the same first segments; tests/e2e/screens.e2e.ts opens each directly).
import {
  AudioLines,
  BarChart3,
  Boxes,
  Cpu,
  FileAudio,
  Home,
  Images,
  KeyRound,
  LayoutPanelLeft,
  Mic,
  Network,
  RefreshCw,
  Settings,
  ShieldCheck,
} from 'lucide-react';
import type { ComponentType } from 'react';

export type NavItem = {
  path: string;
  label: string;
  icon: ComponentType<{ size?: number }>;
  ownerOnly?: boolean;
};
export type NavGroup = { label: string; items: NavItem[] };

export const navGroups: NavGroup[] = [
  {
    label: 'Workspace',
    items: [
      { path: '/', label: 'Home', icon: Home },
      { path: '/assets', label: 'Assets', icon: Images },
      { path: '/transcripts', label: 'Transcripts', icon: FileAudio },
      { path: '/dictation', label: 'Dictation', icon: Mic },
    ],
  },
  {
    label: 'Published',
    items: [
      { path: '/diagrams', label: 'Diagrams', icon: Network },
      { path: '/charts', label: 'Charts', icon: BarChart3 },
      { path: '/artifacts', label: 'Artifacts', icon: LayoutPanelLeft },
    ],
  },
  {
    label: 'Setup',
    items: [
      { path: '/keys', label: 'API keys', icon: KeyRound },
      { path: '/models', label: 'Models', icon: Cpu },
      { path: '/workspaces', label: 'Workspaces', icon: Boxes },
      { path: '/sync', label: 'Sync', icon: RefreshCw },
      { path: '/owner', label: 'Access', icon: ShieldCheck, ownerOnly: true },
      { path: '/settings', label: 'Settings', icon: Settings },
    ],
  },
];

export const brandIcon = AudioLines;
