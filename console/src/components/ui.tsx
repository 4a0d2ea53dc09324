import { type ComponentChildren, createContext } from 'preact'
import { useContext, useEffect, useId, useRef } from 'preact/hooks'
import { t } from '../i18n/index.ts'

// Small accessible building blocks: every input has a visible label and its error is tied to it
// (aria-describedby, aria-invalid); dialogs are native <dialog> (focus stays inside, Esc closes).

interface InputProps {
  label: string
  error?: string
  hint?: string
  id?: string
  name?: string
  type?: 'text' | 'email' | 'tel' | 'password' | 'number' | 'date' | 'time' | 'search' | 'url'
  value?: string | number
  onInput?: (e: Event & { currentTarget: HTMLInputElement }) => void
  required?: boolean
  disabled?: boolean
  autoComplete?: string
  placeholder?: string
  min?: string | number
  max?: string | number
  step?: string | number
  inputMode?: 'text' | 'decimal' | 'numeric' | 'tel' | 'email'
  /** The field a dialog focuses when it opens (native <dialog> honours `autofocus`). */
  autoFocus?: boolean
}

export function Field({ label, error, hint, id, type = 'text', autoFocus, ...input }: InputProps) {
  const auto = useId()
  const fieldId = id ?? auto
  const described = [error ? `${fieldId}-error` : '', hint ? `${fieldId}-hint` : ''].filter(Boolean).join(' ')
  return (
    <div class="field">
      <label for={fieldId}>{label}</label>
      <input
        id={fieldId}
        // Preact types each input `type` as its own variant; ours is one of them, chosen by the caller.
        type={type as 'text'}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
        autofocus={autoFocus}
        {...input}
      />
      {hint && (
        <p class="hint" id={`${fieldId}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="error" id={`${fieldId}-error`}>
          {error}
        </p>
      )}
    </div>
  )
}

interface SelectProps {
  label: string
  error?: string
  options: { value: string; label: string }[]
  id?: string
  name?: string
  value?: string
  onChange?: (e: Event & { currentTarget: HTMLSelectElement }) => void
  required?: boolean
  disabled?: boolean
}

export function SelectField({ label, error, options, id, ...select }: SelectProps) {
  const auto = useId()
  const fieldId = id ?? auto
  return (
    <div class="field">
      <label for={fieldId}>{label}</label>
      <select
        id={fieldId}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        {...select}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error && (
        <p class="error" id={`${fieldId}-error`}>
          {error}
        </p>
      )}
    </div>
  )
}

/** A button in a table row or list item: `label`, then `of` (what it acts on) for screen readers. */
export function RowAction({
  label,
  of,
  onClick,
  disabled,
  primary = false,
}: {
  label: string
  of: ComponentChildren
  onClick: () => void
  disabled?: boolean
  primary?: boolean
}) {
  return (
    <button type="button" class={primary ? 'primary' : undefined} disabled={disabled} onClick={onClick}>
      {label} <span class="sr-only">{of}</span>
    </button>
  )
}

/** A message for the whole form or page: errors are announced (role=alert), notices politely. */
export function Notice({
  kind = 'info',
  children,
}: {
  kind?: 'info' | 'error' | 'success'
  children: ComponentChildren
}) {
  return (
    <div class={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  )
}

/** True inside a Dialog, whose header has the one close control (forms leave out their Cancel). */
const InDialog = createContext(false)

/** Whether the caller renders inside a Dialog (which has its own close control). */
export function useInDialog(): boolean {
  return useContext(InDialog)
}

/**
 * A modal dialog, open while mounted; `onClose` runs on Esc or its one close control, the header's
 * "Close" button. Nothing inside repeats it (no second "Close" or "Cancel" that only closes).
 */
export function Dialog({
  title,
  onClose,
  children,
}: {
  title: string
  onClose: () => void
  children: ComponentChildren
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  // Focus goes back where it was when the dialog closes (or to the page's main region when that
  // button is gone, e.g. a free slot that became a booking).
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null
    return () => {
      if (before?.isConnected) before.focus()
      else document.getElementById('main')?.focus()
    }
  }, [])
  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal()
    const cancel = (e: Event) => {
      e.preventDefault()
      onClose()
    }
    dialog?.addEventListener('cancel', cancel)
    return () => dialog?.removeEventListener('cancel', cancel)
  }, [onClose])
  return (
    <dialog ref={ref} aria-labelledby={titleId} class="dialog">
      <header class="dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" class="ghost dialog-close" onClick={onClose} aria-label={t('common.close')}>
          ×
        </button>
      </header>
      <InDialog.Provider value={true}>{children}</InDialog.Provider>
    </dialog>
  )
}

export function Loading({ what }: { what?: string }) {
  return (
    <p class="loading" role="status">
      {what ?? t('ui.loading')}…
    </p>
  )
}
