import { type ReactNode, useState } from 'react';
import {
  Dialog as AriaDialog,
  TextField as AriaTextField,
  Heading,
  Input,
  Label,
  Modal,
  ModalOverlay,
} from 'react-aria-components';
import { Button } from './button';

export type DialogProps = {
  title: string;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** Dialogs showing something that must be read (a secret) ask for an explicit close. */
  isDismissable?: boolean;
};

/** A modal dialog: focus trapped and restored, Escape closes, title labels it (react-aria). */
export function Dialog({
  title,
  isOpen,
  onOpenChange,
  children,
  footer,
  size = 'md',
  isDismissable = true,
}: DialogProps) {
  return (
    <ModalOverlay
      className="modal-overlay"
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isDismissable={isDismissable}
    >
      <Modal className={`modal modal-${size}`}>
        <AriaDialog className="dialog">
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          <div className="dialog-body">{children}</div>
          {footer && <div className="dialog-footer">{footer}</div>}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

export type ConfirmDialogProps = {
  title: string;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void | Promise<void>;
  children: ReactNode;
  confirmLabel: string;
  /** When given, the person types this exact text before the action is allowed. */
  typeToConfirm?: string;
  isPending?: boolean;
};

/** A destructive confirmation; with `typeToConfirm`, the button waits for the exact text. */
export function ConfirmDialog({
  title,
  isOpen,
  onOpenChange,
  onConfirm,
  children,
  confirmLabel,
  typeToConfirm,
  isPending,
}: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const ready = !typeToConfirm || typed === typeToConfirm;
  const close = (open: boolean) => {
    if (!open) setTyped('');
    onOpenChange(open);
  };
  return (
    <Dialog
      title={title}
      isOpen={isOpen}
      onOpenChange={close}
      size="sm"
      footer={
        <>
          <Button variant="ghost" onPress={() => close(false)}>
            Cancel
          </Button>
          <Button variant="danger" isDisabled={!ready || isPending} onPress={() => void onConfirm()}>
            {isPending ? 'Working…' : confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {typeToConfirm && (
        <AriaTextField className="field" value={typed} onChange={setTyped} autoFocus>
          <Label className="field-label">
            Type <strong className="mono">{typeToConfirm}</strong> to confirm
          </Label>
          <Input className="input" autoComplete="off" spellCheck={false} />
        </AriaTextField>
      )}
    </Dialog>
  );
}
