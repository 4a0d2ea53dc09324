import { Algorithm, hash, verify } from '@node-rs/argon2'

// argon2id. ARGON2_MEMORY_KIB lowers the cost for tests; production keeps the OWASP default (19 MiB).
let memoryCost = 19456

export function setPasswordCost(kib: number) {
  memoryCost = kib
}

export function hashPassword(plain: string): Promise<string> {
  return hash(plain, { algorithm: Algorithm.Argon2id, memoryCost, timeCost: 2, parallelism: 1 })
}

export async function verifyPassword(stored: string | null | undefined, plain: string): Promise<boolean> {
  if (!stored) return false
  try {
    return await verify(stored, plain)
  } catch {
    return false
  }
}
