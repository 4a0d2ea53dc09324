import type { ComponentChildren } from 'preact'

/**
 * A wide table's own horizontal scroll on a narrow screen (the page itself never scrolls sideways),
 * reachable by keyboard as a scrolling region must be (WCAG 2.1.1).
 */
export function Scroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section class="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  )
}
