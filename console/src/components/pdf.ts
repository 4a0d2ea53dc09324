/**
 * Opens a PDF the API answered (fetched with the bearer token, as a Blob) in a new tab; saves it as
 * `filename` when the browser refuses the tab.
 */
export function openPdf(blob: Blob, filename: string) {
  const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }))
  if (!window.open(url, '_blank')) {
    const a = document.createElement('a')
    a.href = url
    a.download = filename
    document.body.append(a)
    a.click()
    a.remove()
  }
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
