import { Type } from 'typebox'
import { MoneyInput, Nullable, QueryFlag } from '../../lib/schemas.ts'
import { SlotMinutes } from '../courts/index.ts'
import { GAME_TYPES, IndoorGameTypeEnum } from './resource.ts'

export const GameType = { ...IndoorGameTypeEnum.request, description: GAME_TYPES.join(', ') }

export const IndoorGameCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  game_type: GameType,
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  capacity: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  slot_minutes: Type.Optional(SlotMinutes),
  price_per_hour: MoneyInput,
  is_active: Type.Optional(Type.Boolean()),
  sort_order: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
})

export const IndoorGameUpdateBody = Type.Partial(IndoorGameCreateBody)

export const IndoorGameListQuery = Type.Object({
  game_type: Type.Optional(GameType),
  include_inactive: Type.Optional(
    QueryFlag(
      "1 (or true) also lists the venue's deactivated games (is_active false), for the venue's owner, managers and " +
        'staff and for super_admin; ignored for guests and customers, who see active games only',
    ),
  ),
})
