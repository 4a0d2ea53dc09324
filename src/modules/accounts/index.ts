// What other modules may use of accounts.
export { selectUsers } from './queries.ts'
export { LocaleEnum, type UserResource, type UserRow, UserSchema, userResource } from './resource.ts'
