import { Mic, Pilcrow, Square, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import { Button, ButtonLink } from '../../ui/button';
import { formatDuration } from '../../ui/format';
import { Page } from '../../ui/page';
import { Spinner } from '../../ui/states';
import { useDictation } from './components/use-dictation';
import './realtime.css';

const STATUS = {
  idle: 'Ready',
  connecting: 'Connecting…',
  live: 'Listening',
  closing: 'Finishing the last words…',
  closed: 'Stopped',
  error: 'Stopped',
};

export default function DictationScreen() {
  const d = useDictation();
  const live = d.state === 'live';
  const busy = d.state === 'connecting' || d.state === 'closing';
  return (
    <Page
      title="Dictation"
      description="Speak and watch the words appear, transcribed live on this machine. Keep the recording as an asset and a transcript when you’re done."
    >
      <div className="dictation">
        <div className="dictation-controls card">
          <div
            className={`mic${live ? ' live' : ''}`}
            style={{ '--level': Math.min(1, d.level * 6) } as React.CSSProperties}
            aria-hidden
          >
            <Mic size={28} />
          </div>
          <div className="dictation-status" role="status" aria-live="polite">
            <span className="dictation-state">
              {busy && <Spinner size={14} />} {STATUS[d.state]}
            </span>
            {(live || d.seconds > 0) && <span className="muted small mono">{formatDuration(d.seconds)}</span>}
          </div>
          <div className="row">
            {live ? (
              <>
                <Button icon={<Pilcrow size={16} />} onPress={d.commit}>
                  New paragraph
                </Button>
                <Button variant="ghost" icon={<Trash2 size={16} />} onPress={() => d.stop(false)}>
                  Discard
                </Button>
                <Button variant="primary" icon={<Square size={16} />} onPress={() => d.stop(true)}>
                  Stop and keep
                </Button>
              </>
            ) : (
              <Button
                variant="primary"
                icon={<Mic size={16} />}
                onPress={() => void d.start()}
                isDisabled={busy}
              >
                {d.state === 'closed' || d.state === 'error' ? 'Start again' : 'Start dictation'}
              </Button>
            )}
          </div>
        </div>
        {d.problem && (
          <div className="callout danger" role="alert">
            <span>
              {d.problem}
              {/model/i.test(d.problem) && (
                <>
                  {' '}
                  <Link to="/models">Install a model</Link>
                </>
              )}
            </span>
          </div>
        )}
        {d.kept?.transcriptId && (
          <div className="callout success" role="status">
            <span>Kept as a recording and a transcript.</span>
            <span className="spacer" />
            <ButtonLink size="sm" href={`/transcripts/${d.kept.transcriptId}`}>
              Open transcript
            </ButtonLink>
          </div>
        )}
        <section className="dictation-text card" aria-label="Live transcript" data-testid="live-transcript">
          {d.finals.length === 0 && !d.partial ? (
            <p className="faint">{live ? 'Start speaking…' : 'What you say appears here.'}</p>
          ) : (
            <>
              {d.finals.map((f) => (
                <p key={`${f.start}-${f.end}`} className="final">
                  {f.text}
                </p>
              ))}
              {d.partial && <p className="partial">{d.partial}</p>}
            </>
          )}
        </section>
      </div>
    </Page>
  );
}
