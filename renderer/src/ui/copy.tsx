import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from './button';

export async function copyText(text: string, what = 'Copied'): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(what);
  } catch {
    toast.error('Copy failed: select the text and copy it by hand');
  }
}

export function CopyButton({
  text,
  label = 'Copy',
  what,
  variant = 'secondary',
  iconOnly,
}: {
  text: string;
  label?: string;
  what?: string;
  variant?: 'secondary' | 'ghost' | 'primary';
  iconOnly?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="sm"
      variant={variant}
      iconOnly={iconOnly}
      aria-label={iconOnly ? label : undefined}
      icon={copied ? <Check size={14} /> : <Copy size={14} />}
      onPress={async () => {
        await copyText(text, what ?? `${label.replace(/^Copy\s*/, '') || 'Text'} copied`);
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? 'Copied' : label}
    </Button>
  );
}

/** A block of code or a secret, with a copy button. */
export function CodeBlock({ code, label, language }: { code: string; label: string; language?: string }) {
  return (
    <figure className="code-block">
      <figcaption className="code-block-header">
        <span>{label}</span>
        <CopyButton
          text={code}
          label={`Copy ${language ?? ''}`.trim()}
          what={`${label} copied`}
          variant="ghost"
        />
      </figcaption>
      {/* focusable so a long snippet scrolls from the keyboard too */}
      <section className="code-scroll" aria-label={label}>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable) */}
        <pre className="code" tabIndex={0}>
          <code>{code}</code>
        </pre>
      </section>
    </figure>
  );
}

/** A URL on one line with copy. */
export function UrlRow({ label, url }: { label: string; url: string }) {
  return (
    <div className="url-row">
      <span className="url-row-label">{label}</span>
      <a className="url-row-value mono" href={url} target="_blank" rel="noreferrer">
        {url}
      </a>
      <CopyButton
        text={url}
        label={`Copy ${label} URL`}
        what={`${label} URL copied`}
        variant="ghost"
        iconOnly
      />
    </div>
  );
}
