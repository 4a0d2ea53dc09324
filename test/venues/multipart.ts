// A multipart/form-data request body for app.inject, and a real 1×1 PNG to upload.

/** A valid 1×1 transparent PNG, built from its bytes. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

export type Field = string | { file: Buffer; name?: string; type?: string }

export async function multipart(fields: Array<[string, Field]>) {
  const form = new FormData()
  for (const [key, value] of fields) {
    if (typeof value === 'string') form.append(key, value)
    else
      form.append(
        key,
        new Blob([new Uint8Array(value.file)], { type: value.type ?? 'image/png' }),
        value.name ?? 'photo.png',
      )
  }
  const res = new Response(form)
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  }
}
