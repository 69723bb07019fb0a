import type { Conflict } from '@server/domains/sync/desktop/screen-schema';
import { GitMerge } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { Segmented } from '../../../ui/segmented';
import { EmptyState, ErrorState, LoadingRows } from '../../../ui/states';
import { type ConflictStatus, useConflicts } from '../api/conflicts';
import { type Keep, useResolveConflict } from '../api/resolve-conflict';
import { ConflictCard, nameOf } from './conflict-card';
import { isVersionKind } from './labels';

type Choice = { title: string; confirm: string; text: string };
const CHOICES: Record<Keep, Choice> = {
  winner: {
    title: 'Keep the hosted version',
    confirm: 'Keep hosted version',
    text: 'The hosted version stays on both sides and your copy from this computer is discarded.',
  },
  copy: {
    title: 'Use your copy',
    confirm: 'Use my copy',
    text: 'Your copy replaces the hosted version here now, and on the hosted Folio with the next sync.',
  },
};
/** A publication's version is never replaced: the copy comes back beside the hosted one. */
const VERSION_COPY: Choice = {
  title: 'Publish your copy again',
  confirm: 'Publish as a new version',
  text: 'Your copy becomes the next version here now, and on the hosted Folio with the next sync; the hosted version stays in the history.',
};

/** Records edited here and on the hosted side: the hosted edit won, this computer's was kept to decide on. */
export function Conflicts() {
  const [status, setStatus] = useState<ConflictStatus>('open');
  const conflicts = useConflicts(status);
  const resolve = useResolveConflict();
  const [pending, setPending] = useState<{ conflict: Conflict; keep: Keep } | null>(null);
  const handleConfirm = () => {
    if (!pending) return;
    resolve.mutate(
      { id: pending.conflict.id, keep: pending.keep },
      {
        onSuccess: () => {
          toast.success(`Resolved “${nameOf(pending.conflict)}”`);
          setPending(null);
        },
        onError: (e) => toast.error(e.message),
      },
    );
  };
  const choice =
    pending &&
    (pending.keep === 'copy' && isVersionKind(pending.conflict.kind) ? VERSION_COPY : CHOICES[pending.keep]);
  return (
    <div className="stack">
      <div className="sync-filter">
        <Segmented
          label="Which conflicts"
          value={status}
          onChange={setStatus}
          options={[
            { id: 'open', label: 'To resolve' },
            { id: 'resolved', label: 'Resolved' },
          ]}
        />
      </div>
      {conflicts.isPending ? (
        <LoadingRows rows={2} label="Loading conflicts" />
      ) : conflicts.isError ? (
        <ErrorState error={conflicts.error} onRetry={() => conflicts.refetch()} />
      ) : conflicts.data.length === 0 ? (
        <EmptyState
          icon={<GitMerge size={20} />}
          title={status === 'open' ? 'No conflicts' : 'None resolved yet'}
        >
          {status === 'open'
            ? 'When the same item is edited here and on the hosted Folio between syncs, both versions show up here.'
            : 'Conflicts you resolve are listed here.'}
        </EmptyState>
      ) : (
        conflicts.data.map((c) => (
          <ConflictCard key={c.id} conflict={c} onResolve={(keep) => setPending({ conflict: c, keep })} />
        ))
      )}
      <Dialog
        title={choice?.title ?? ''}
        isOpen={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        size="sm"
        footer={
          <>
            <Button variant="ghost" onPress={() => setPending(null)}>
              Cancel
            </Button>
            <Button variant="primary" onPress={handleConfirm} isDisabled={resolve.isPending}>
              {resolve.isPending ? 'Working…' : choice?.confirm}
            </Button>
          </>
        }
      >
        {pending && (
          <p>
            <strong>{nameOf(pending.conflict)}</strong>: {choice?.text}
          </p>
        )}
      </Dialog>
    </div>
  );
}
