import type { ReactNode } from 'react';
import { Switch as AriaSwitch, type SwitchProps } from 'react-aria-components';

/** An on/off setting that applies at once (react-aria: a labelled checkbox with the switch role). */
export function Switch({
  children,
  description,
  ...props
}: Omit<SwitchProps, 'className' | 'children'> & { children: ReactNode; description?: ReactNode }) {
  return (
    <AriaSwitch {...props} className="switch">
      <span className="switch-track" aria-hidden>
        <span className="switch-thumb" />
      </span>
      <span className="switch-text">
        <span className="switch-label">{children}</span>
        {description && <span className="field-description">{description}</span>}
      </span>
    </AriaSwitch>
  );
}
