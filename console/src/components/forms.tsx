import type { ComponentChildren } from 'preact'
import { useCallback, useEffect, useId, useState } from 'preact/hooks'
import { ApiError, messageOf } from '../api.ts'
import { t } from '../i18n/index.ts'
import { Dialog, Loading, Notice, useInDialog } from './ui.tsx'

// Form and list plumbing for the owner and administration pages: a form's values, its busy state,
// the 422 messages per field and a success notice; data loaded once and reloaded after a change;
// a pager for the paginated admin lists.

/** The state of one form: `submit` runs the action, then shows its success text or its errors. */
export function useForm<T extends Record<string, string | boolean>>(initial: T) {
  const [values, setValues] = useState<T>(initial)
  const [error, setError] = useState<unknown>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  /** The message the service gave for `name` (a 422 names the field). */
  const fieldError = (name: string): string | undefined => (error instanceof ApiError ? error.field(name) : undefined)

  /** An onInput handler for a text-like input. */
  const text = (name: keyof T & string) => (e: Event & { currentTarget: HTMLInputElement | HTMLTextAreaElement }) =>
    setValues((v) => ({ ...v, [name]: e.currentTarget.value }))
  /** An onChange handler for a select. */
  const choose = (name: keyof T & string) => (e: Event & { currentTarget: HTMLSelectElement }) =>
    setValues((v) => ({ ...v, [name]: e.currentTarget.value }))
  /** An onChange handler for a checkbox. */
  const check = (name: keyof T & string) => (e: Event & { currentTarget: HTMLInputElement }) =>
    setValues((v) => ({ ...v, [name]: e.currentTarget.checked }))

  /** value, onInput and error of a text-like field (Field, TextAreaField): `{...f.bind('name')}`. */
  const bind = (name: TextKey<T>): TextBinding => ({
    value: values[name] as string,
    onInput: text(name),
    error: fieldError(name),
  })
  /** value, onChange and error of a SelectField: `{...f.bindSelect('name')}`. */
  const bindSelect = (name: TextKey<T>): SelectBinding => ({
    value: values[name] as string,
    onChange: choose(name),
    error: fieldError(name),
  })

  async function submit(action: () => Promise<string | undefined>) {
    setBusy(true)
    setError(null)
    setNotice(null)
    try {
      const done = await action()
      if (done) setNotice(done)
      return true
    } catch (err) {
      setError(err)
      return false
    } finally {
      setBusy(false)
    }
  }

  return {
    values,
    setValues,
    error,
    setError,
    notice,
    setNotice,
    busy,
    fieldError,
    text,
    choose,
    check,
    bind,
    bindSelect,
    submit,
  }
}

/** The keys of a form's text (string) values. */
type TextKey<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string
export interface TextBinding {
  value: string
  onInput: (e: Event & { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => void
  error: string | undefined
}
export interface SelectBinding {
  value: string
  onChange: (e: Event & { currentTarget: HTMLSelectElement }) => void
  error: string | undefined
}
/** The part of a form's state a shared block of fields needs, for the fields named K. */
export interface Binder<K extends string> {
  bind: (name: K) => TextBinding
  bindSelect: (name: K) => SelectBinding
  busy: boolean
}

/** The form-wide outcome: the error (announced) or the success notice. */
export function Outcome({ error, notice }: { error: unknown; notice: string | null }) {
  if (error) return <Notice kind="error">{messageOf(error)}</Notice>
  if (notice) return <Notice kind="success">{notice}</Notice>
  return null
}

/** Data from `load`, loaded on mount and whenever `deps` change; `reload` after a change. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    let live = true
    setError(null)
    load()
      .then((d) => live && setData(d))
      .catch((err: unknown) => live && setError(messageOf(err)))
    return () => {
      live = false
    }
  }, [...deps, version])
  const reload = useCallback(() => setVersion((v) => v + 1), [])
  return { data, error, reload }
}

/**
 * A loaded list: its error, "Loading…" until it arrives, the `empty` text when it has nothing,
 * otherwise `children(data)`.
 */
export function Loaded<T>({
  state,
  loading,
  empty,
  isEmpty = (d) => Array.isArray(d) && d.length === 0,
  children,
}: {
  state: { data: T | null; error: string | null }
  loading: string
  empty: string
  isEmpty?: (data: T) => boolean
  children: (data: T) => ComponentChildren
}) {
  return (
    <>
      {state.error && <Notice kind="error">{state.error}</Notice>}
      {!state.data ? (
        !state.error && <Loading what={loading} />
      ) : isEmpty(state.data) ? (
        <p>{empty}</p>
      ) : (
        children(state.data)
      )}
    </>
  )
}

/** A data table: its caption (for screen readers), the column headers, then the rows (`children`). */
export function Table({
  caption,
  columns,
  children,
}: {
  caption: string
  columns: (string | { label: string; num: true })[]
  children: ComponentChildren
}) {
  return (
    <table>
      <caption class="sr-only">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) =>
            typeof c === 'string' ? (
              <th key={c} scope="col">
                {c}
              </th>
            ) : (
              <th key={c.label} scope="col" class="num">
                {c.label}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  )
}

interface PageMeta {
  current_page: number
  last_page: number
  total: number
}

/** A loaded page of a paginated list (`{ data, meta }`): the rows by `children`, then the pager. */
export function PagedList<R>({
  state,
  loading,
  empty,
  label,
  onPage,
  children,
}: {
  state: { data: { data: R[]; meta: PageMeta } | null; error: string | null }
  loading: string
  empty: string
  label: string
  onPage: (page: number) => void
  children: (rows: R[]) => ComponentChildren
}) {
  return (
    <Loaded state={state} loading={loading} empty={empty} isEmpty={(d) => d.data.length === 0}>
      {(d) => (
        <>
          {children(d.data)}
          <Pager
            label={label}
            page={d.meta.current_page}
            lastPage={d.meta.last_page}
            total={d.meta.total}
            onPage={onPage}
          />
        </>
      )}
    </Loaded>
  )
}

/**
 * A "Remove …?" / "Delete …?" confirmation: `action` runs on the danger button; `onDone` after it
 * succeeded, its error shown in the dialog otherwise. Keeping it is the dialog's close control.
 */
export function ConfirmDialog({
  title,
  confirm,
  action,
  onClose,
  onDone,
  children,
}: {
  title: string
  confirm: string
  action: () => Promise<unknown>
  onClose: () => void
  onDone: () => void
  children: ComponentChildren
}) {
  const f = useForm({})
  async function run() {
    const done = await f.submit(async () => {
      await action()
      return undefined
    })
    if (done) onDone()
  }
  return (
    <Dialog title={title} onClose={onClose}>
      <Outcome error={f.error} notice={f.notice} />
      {children}
      <div class="actions">
        <button type="button" class="danger" disabled={f.busy} onClick={run}>
          {confirm}
        </button>
      </div>
    </Dialog>
  )
}

/**
 * A form's buttons: submit (primary, or danger) and Cancel. Inside a Dialog there is no Cancel: the
 * dialog's header "Close" is its one close control.
 */
export function FormActions({
  submit,
  busy,
  onCancel,
  danger = false,
}: {
  submit: string
  busy: boolean
  onCancel?: () => void
  danger?: boolean
}) {
  const inDialog = useInDialog()
  return (
    <div class="actions">
      <button type="submit" class={danger ? 'danger' : 'primary'} disabled={busy}>
        {submit}
      </button>
      {onCancel && !inDialog && (
        <button type="button" onClick={onCancel}>
          {t('forms.cancel')}
        </button>
      )}
    </div>
  )
}

interface TextAreaProps {
  label: string
  error?: string
  hint?: string
  value?: string
  rows?: number
  onInput?: (e: Event & { currentTarget: HTMLTextAreaElement }) => void
}

export function TextAreaField({ label, error, hint, rows = 3, ...input }: TextAreaProps) {
  const id = useId()
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ')
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea
        id={id}
        rows={rows}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
        {...input}
      />
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  )
}

export function CheckField({
  label,
  checked,
  onChange,
  error,
}: {
  label: string
  checked: boolean
  onChange: (e: Event & { currentTarget: HTMLInputElement }) => void
  error?: string
}) {
  const id = useId()
  return (
    <div class="field check">
      <span>
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={onChange}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <label for={id}>{label}</label>
      </span>
      {error && (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  )
}

/** Previous / next for a paginated list (meta of the service's paginated answers). */
export function Pager({
  page,
  lastPage,
  total,
  onPage,
  label,
}: {
  page: number
  lastPage: number
  total?: number
  onPage: (page: number) => void
  label: string
}) {
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('forms.previousPage')}
      </button>
      <span>
        {t('forms.page', { page, last: Math.max(lastPage, 1) })}
        {total !== undefined && t('forms.inAll', { total })}
      </span>
      <button type="button" disabled={page >= lastPage} onClick={() => onPage(page + 1)}>
        {t('forms.nextPage')}
      </button>
    </nav>
  )
}

/** A titled card on a management page. */
export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="card manage-section">
      <h2>{title}</h2>
      {children}
    </section>
  )
}

/** Rupees as typed by a person ("1,500" or "1500.5") → the wire's "1500.50"-ish string; the service validates. */
export function rupees(text: string): string {
  return text.replace(/,/g, '').trim()
}

/** "" → null, otherwise the trimmed text. */
export function orNull(text: string): string | null {
  const t = text.trim()
  return t === '' ? null : t
}

/** An integer from a form field; NaN-free: "" → undefined so the service's default applies. */
export function intOf(text: string): number | undefined {
  const t = text.trim()
  if (t === '') return undefined
  const n = Number(t)
  return Number.isFinite(n) ? n : undefined
}

/** "HH:mm:ss" → "HH:mm" for a time input. */
export function hhmm(time: string | null | undefined): string {
  return time ? time.slice(0, 5) : ''
}

/** Today's date (YYYY-MM-DD) on this device's clock, the desk's own day. */
export function today(): string {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
