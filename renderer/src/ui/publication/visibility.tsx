import { Globe, Link2, Lock } from 'lucide-react';
import type { Visibility } from '../../api/types';
import { Badge } from '../badge';

export const VISIBILITY: Record<Visibility, { label: string; help: string; icon: typeof Globe }> = {
  private: { label: 'Private', help: 'Only you, signed in, can open its page.', icon: Lock },
  unlisted: {
    label: 'Unlisted',
    help: 'Anyone with the link can open it; it is not listed anywhere.',
    icon: Link2,
  },
  public: { label: 'Public', help: 'Anyone can open it.', icon: Globe },
};

export function VisibilityBadge({ visibility }: { visibility: Visibility }) {
  const { label, icon: Icon } = VISIBILITY[visibility];
  return (
    <Badge tone={visibility === 'private' ? 'neutral' : visibility === 'public' ? 'success' : 'info'}>
      <Icon size={12} /> {label}
    </Badge>
  );
}
