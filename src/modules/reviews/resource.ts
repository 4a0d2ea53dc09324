import { type Static, Type } from 'typebox'
import { DateTime, Nullable, named } from '../../lib/schemas.ts'
import type { Storage } from '../../lib/storage.ts'
import type { Zone } from '../../lib/zone.ts'

// The contract's ReviewResource: schemas and row mapping. The loaders are in queries.ts.

export const ReviewReplySchema = named(
  'ReviewReply',
  Type.Object({
    id: Type.Integer(),
    reply: Type.String(),
    user: Type.Object({ id: Type.Integer(), name: Type.String() }),
    created_at: DateTime,
  }),
)

export const ReviewSchema = named(
  'Review',
  Type.Object({
    id: Type.Integer(),
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    comment: Nullable(Type.String()),
    is_approved: Type.Boolean({ description: 'Only approved reviews show publicly' }),
    user: Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      avatar: Nullable(Type.String({ description: 'Absolute URL of the avatar image' })),
    }),
    images: Type.Array(Type.Object({ id: Type.Integer(), url: Type.String() })),
    replies: Type.Array(ReviewReplySchema),
    created_at: DateTime,
  }),
)

export type Review = Static<typeof ReviewSchema>
export type ReviewReply = Static<typeof ReviewReplySchema>

/** A review row with its reviewer, before images and replies are attached. */
export function reviewResource(
  storage: Storage,
  zone: Zone,
  r: {
    id: number
    rating: number
    comment: string | null
    is_approved: boolean
    created_at: Date
    user_id: number
    user_name: string
    avatar_path: string | null
  },
): Review {
  return {
    id: r.id,
    rating: r.rating,
    comment: r.comment,
    is_approved: r.is_approved,
    user: { id: r.user_id, name: r.user_name, avatar: storage.url(r.avatar_path) },
    images: [],
    replies: [],
    created_at: zone.format(r.created_at)!,
  }
}

export function replyResource(
  rep: { id: number; reply: string; created_at: Date; user_id: number; user_name: string },
  zone: Zone,
): ReviewReply {
  return {
    id: rep.id,
    reply: rep.reply,
    user: { id: rep.user_id, name: rep.user_name },
    created_at: zone.format(rep.created_at)!,
  }
}
