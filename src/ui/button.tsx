import type { AnchorHTMLAttributes, ButtonHTMLAttributes } from "react";

/** The four button variants of spec §9. */
export type ButtonVariant = "primary" | "secondary" | "white" | "danger";

export type ButtonSize = "sm" | "md" | "lg";

const base =
  "inline-flex items-center justify-center gap-2 rounded-md font-semibold shadow-sm " +
  "transition-colors disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:opacity-60";

const sizes: Record<ButtonSize, string> = {
  sm: "px-3 py-1.5 text-sm",
  md: "px-4 py-2 text-sm",
  lg: "px-6 py-3 text-base",
};

const variants: Record<ButtonVariant, string> = {
  primary: "bg-brand-600 text-white hover:bg-brand-700",
  secondary: "bg-brand-50 text-brand-800 ring-1 ring-brand-100 ring-inset hover:bg-brand-100",
  white: "bg-white text-slate-900 ring-1 ring-slate-300 ring-inset hover:bg-slate-50",
  danger: "bg-red-600 text-white hover:bg-red-700",
};

export function buttonClass(variant: ButtonVariant = "primary", size: ButtonSize = "md"): string {
  return `${base} ${sizes[size]} ${variants[variant]}`;
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; size?: ButtonSize; pending?: boolean };

/** A button; `pending` keeps it focusable but busy while a form submits. */
export function Button({
  variant = "primary",
  size = "md",
  pending = false,
  className = "",
  type = "button",
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={`${buttonClass(variant, size)} ${className}`}
      aria-busy={pending || undefined}
      aria-disabled={pending || undefined}
      {...rest}
    >
      {children}
    </button>
  );
}

type ButtonLinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { variant?: ButtonVariant; size?: ButtonSize };

/** A link that looks like a button, for navigation (it stays a link for assistive technology). */
export function ButtonLink({ variant = "primary", size = "md", className = "", children, ...rest }: ButtonLinkProps) {
  return (
    <a className={`${buttonClass(variant, size)} ${className}`} {...rest}>
      {children}
    </a>
  );
}
