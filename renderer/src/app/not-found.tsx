import { Compass } from 'lucide-react';
import { ButtonLink } from '../ui/button';
import { EmptyState } from '../ui/states';

export default function NotFound() {
  return (
    <EmptyState
      icon={<Compass size={20} />}
      title="Nothing here"
      action={<ButtonLink href="/">Go home</ButtonLink>}
    >
      This address is not a screen of the dashboard.
    </EmptyState>
  );
}
