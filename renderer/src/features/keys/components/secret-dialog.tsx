import { ShieldAlert } from 'lucide-react';
import type { CreatedApiKey } from '../../../api/types';
import { Button } from '../../../ui/button';
import { CodeBlock } from '../../../ui/copy';
import { Dialog } from '../../../ui/dialog';

/** The secret, this once: copy it now; closing needs an explicit press. */
export function SecretDialog({ created, onClose }: { created: CreatedApiKey | null; onClose: () => void }) {
  if (!created) return null;
  const origin = window.location.origin;
  const curl = `curl ${origin}/api/v1/me \\\n  -H "Authorization: Bearer ${created.secret}"`;
  return (
    <Dialog
      title={`Key “${created.name}” created`}
      isOpen
      onOpenChange={(open) => !open && onClose()}
      isDismissable={false}
      size="md"
      footer={
        <Button variant="primary" onPress={onClose}>
          I’ve copied it
        </Button>
      }
    >
      <div className="callout warning">
        <ShieldAlert size={16} />
        <span>
          This is the only time the secret is shown. Keep it server-side (an environment variable), never in a
          web page.
        </span>
      </div>
      <CodeBlock label="Secret" code={created.secret} language="secret" />
      <CodeBlock label="Try it" code={curl} language="curl" />
    </Dialog>
  );
}
