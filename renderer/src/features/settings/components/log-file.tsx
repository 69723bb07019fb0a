import { FileText } from 'lucide-react';
import { desktop } from '../../../api/bridge';
import { Button } from '../../../ui/button';
import { Section } from '../../../ui/page';

/** Where the desktop app writes its log: the file manager shows it in the app, a browser shows its path. */
export function LogFile({ path }: { path: string }) {
  const bridge = desktop();
  return (
    <Section
      title="Log"
      description="What Folio reports while it runs, kept in the data folder: a new file past 5 MB, the newest five kept."
    >
      <span className="mono small" data-testid="log-file">
        {path}
      </span>
      {bridge && (
        <div>
          <Button size="sm" icon={<FileText size={14} />} onPress={() => void bridge.revealLogFile()}>
            Show log file
          </Button>
        </div>
      )}
    </Section>
  );
}
