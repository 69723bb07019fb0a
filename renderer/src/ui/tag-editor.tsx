import { X } from 'lucide-react';
import { useState } from 'react';
import { Input, Label, Tag, TagGroup, TagList, TextField } from 'react-aria-components';
import { Button } from './button';

/** Tags as removable chips plus an input: Enter or comma adds, Backspace on an empty input removes the last. */
export function TagEditor({
  tags,
  onChange,
  label = 'Tags',
  isDisabled,
}: {
  tags: string[];
  onChange: (tags: string[]) => void;
  label?: string;
  isDisabled?: boolean;
}) {
  const [draft, setDraft] = useState('');
  const add = (raw: string) => {
    const next = raw
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (next.length) onChange([...new Set([...tags, ...next])]);
    setDraft('');
  };
  return (
    <div className="tag-editor">
      <TagGroup aria-label={label} onRemove={(keys) => onChange(tags.filter((t) => !keys.has(t)))}>
        <Label className="field-label">{label}</Label>
        <TagList
          className="tag-list"
          items={tags.map((t) => ({ id: t }))}
          renderEmptyState={() => <span className="muted small">No tags yet</span>}
        >
          {(item) => (
            <Tag className="tag" id={item.id} textValue={item.id}>
              {item.id}
              <Button
                slot="remove"
                variant="ghost"
                size="sm"
                iconOnly
                icon={<X size={12} />}
                aria-label={`Remove tag ${item.id}`}
              />
            </Tag>
          )}
        </TagList>
      </TagGroup>
      <TextField
        aria-label={`Add to ${label.toLowerCase()}`}
        value={draft}
        onChange={setDraft}
        isDisabled={isDisabled}
        className="field"
      >
        <Input
          className="input"
          placeholder="Add a tag and press Enter"
          // The input's own value, not `draft`: a key pressed right after typing can arrive before the render
          // that holds the last characters.
          onKeyDown={(event) => {
            const typed = event.currentTarget.value;
            if (event.key === 'Enter' || event.key === ',') {
              event.preventDefault();
              add(typed);
            } else if (event.key === 'Backspace' && !typed && tags.length) onChange(tags.slice(0, -1));
          }}
          onBlur={(event) => event.currentTarget.value && add(event.currentTarget.value)}
        />
      </TextField>
    </div>
  );
}
