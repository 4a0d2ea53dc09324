import { randomBytes } from 'node:crypto'
import { copyFile, mkdir, readFile, unlink } from 'node:fs/promises'
import { dirname, join, normalize } from 'node:path'
import { fileTypeFromFile } from 'file-type'

// Uploaded files behind a small interface; the local driver keeps them under UPLOADS_DIR and the
// app serves them at /storage/<path>. Another driver (S3 and the like) only needs these methods.
// Uploads arrive as local temporary files (lib/uploads.ts), so `put` takes a file, not its bytes.

export interface LocalFile {
  path: string
}

export interface Storage {
  /** Stores a copy of the local file under `folder`; returns its storage path. */
  put(folder: string, file: LocalFile, ext: string): Promise<string>
  get(path: string): Promise<Buffer | null>
  delete(path: string): Promise<void>
  url(path: string | null | undefined): string | null
}

export function localStorage(root: string, appUrl: string): Storage {
  const safe = (path: string) => {
    const p = normalize(path).replace(/^(\.\.(\/|\\|$))+/, '')
    if (p.startsWith('/') || p.includes('..')) throw new Error('bad storage path')
    return join(root, p)
  }
  return {
    async put(folder, file, ext) {
      const path = `${folder}/${Date.now().toString(36)}-${randomBytes(8).toString('hex')}.${ext}`
      const full = safe(path)
      await mkdir(dirname(full), { recursive: true })
      await copyFile(file.path, full)
      return path
    },
    async get(path) {
      try {
        return await readFile(safe(path))
      } catch {
        return null
      }
    },
    async delete(path) {
      await unlink(safe(path)).catch(() => undefined)
    },
    url(path) {
      return path ? `${appUrl}/storage/${path}` : null
    },
  }
}

export const IMAGE_TYPES = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' } as const

/** Detects jpg/png/webp by the file's first bytes (not its name); null for anything else. */
export async function detectImage(file: LocalFile): Promise<{ mime: keyof typeof IMAGE_TYPES; ext: string } | null> {
  const type = await fileTypeFromFile(file.path)
  if (!type || !(type.mime in IMAGE_TYPES)) return null
  const mime = type.mime as keyof typeof IMAGE_TYPES
  return { mime, ext: IMAGE_TYPES[mime] }
}
