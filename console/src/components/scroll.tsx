import type { ComponentChildren } from 'preact'

/**
 * A wide table's own sideways scroll box, so a phone's page never scrolls sideways: focusable (the
 * keyboard scrolls it) and named, as a region, by what it holds.
 */
export function ScrollBox({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keyboard.
    <section class="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  )
}
