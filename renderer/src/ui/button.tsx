import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  type ButtonProps as AriaButtonProps,
  Link as AriaLink,
  type LinkProps as AriaLinkProps,
} from 'react-aria-components';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
type Look = { variant?: ButtonVariant; size?: 'sm' | 'md'; icon?: ReactNode; iconOnly?: boolean };

const className = ({ variant = 'secondary', size = 'md', iconOnly }: Look) =>
  ['btn', `btn-${variant}`, `btn-${size}`, iconOnly ? 'btn-icon' : ''].filter(Boolean).join(' ');

export type ButtonProps = Omit<AriaButtonProps, 'className' | 'children'> & Look & { children?: ReactNode };

/** A button from the tokens; behaviour (press, focus, disabled) from react-aria. */
export function Button({ variant, size, icon, iconOnly, children, ...props }: ButtonProps) {
  return (
    <AriaButton {...props} className={className({ variant, size, iconOnly })}>
      {icon}
      {iconOnly ? null : children}
    </AriaButton>
  );
}

export type ButtonLinkProps = Omit<AriaLinkProps, 'className' | 'children'> & Look & { children?: ReactNode };

/** A link that looks like a button (navigates with the router through RouterProvider). */
export function ButtonLink({ variant, size, icon, iconOnly, children, ...props }: ButtonLinkProps) {
  return (
    <AriaLink {...props} className={className({ variant, size, iconOnly })}>
      {icon}
      {iconOnly ? null : children}
    </AriaLink>
  );
}
