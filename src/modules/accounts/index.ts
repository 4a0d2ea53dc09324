// What other modules may use of accounts (the accounts owner keeps the full list).
export { selectUsers, type UserResource, type UserRow, UserSchema, userResource } from './resource.ts'
