import { randomBytes } from 'node:crypto'
import { copyFile, mkdir, readFile, rename, unlink } from 'node:fs/promises'
import { dirname, join, normalize } from 'node:path'
import { fileTypeFromFile } from 'file-type'
import { Invalid } from './errors.ts'
import { DEFAULT_MAX_IMAGE_PIXELS } from './uploads.ts'

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

/** An image's pixels beyond the limit: 422 on the field it came in. */
export class TooManyPixels extends Invalid {
  constructor(field: string, width: number, height: number, max: number) {
    const label = field.replace(/_/g, ' ')
    super(
      field,
      `The ${label} field must be an image of at most ${max.toLocaleString('en-US')} pixels ` +
        `(it is ${width} × ${height}).`,
    )
  }
}

type Sharp = typeof import('sharp').default
let sharpModule: Promise<Sharp> | undefined
/** sharp (libvips) is loaded on the first image, not at start. */
const loadSharp = () => {
  sharpModule ??= import('sharp').then((m) => m.default)
  return sharpModule
}

/**
 * Detects jpg/png/webp by the file's first bytes (not its name); null for anything else or an
 * image that does not decode. Then reads its dimensions from its header and refuses more than
 * `file.maxPixels` (MAX_IMAGE_PIXELS) width × height with a 422 on `file.field`, before any pixel
 * is decoded (a 1 MB PNG may declare 20,000 × 20,000). Last, re-encodes it in place in the same
 * format without its metadata (EXIF with GPS position and camera serial, XMP, IPTC, ICC profiles
 * and text chunks), turned upright by its EXIF orientation first; `file.size` is updated.
 */
export async function detectImage(
  file: LocalFile & { size?: number; field?: string; maxPixels?: number },
): Promise<{ mime: keyof typeof IMAGE_TYPES; ext: string; width: number; height: number } | null> {
  const type = await fileTypeFromFile(file.path)
  if (!type || !(type.mime in IMAGE_TYPES)) return null
  const mime = type.mime as keyof typeof IMAGE_TYPES
  const ext = IMAGE_TYPES[mime]
  const max = file.maxPixels ?? DEFAULT_MAX_IMAGE_PIXELS
  const sharp = await loadSharp()
  let meta: import('sharp').Metadata
  try {
    meta = await sharp(file.path, { limitInputPixels: false }).metadata()
  } catch {
    return null
  }
  const width = meta.width ?? 0
  const height = meta.height ?? 0
  if (width < 1 || height < 1) return null
  if (width * height > max) throw new TooManyPixels(file.field ?? 'file', width, height, max)
  const clean = `${file.path}.clean`
  try {
    // Metadata is left out unless asked for; `autoOrient` applies the EXIF orientation the
    // stripped metadata would otherwise have carried.
    let image = sharp(file.path, { limitInputPixels: max, animated: mime !== 'image/jpeg' }).autoOrient()
    if (mime === 'image/jpeg') image = image.jpeg({ quality: 90 })
    else if (mime === 'image/png') image = image.png()
    else image = image.webp({ quality: 90 })
    const info = await image.toFile(clean)
    await rename(clean, file.path)
    if (file.size !== undefined) file.size = info.size
  } catch {
    await unlink(clean).catch(() => undefined)
    return null
  }
  return { mime, ext, width, height }
}
