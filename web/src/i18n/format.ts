// The customer app's numbers, money and dates are the front-ends' shared formatting
// (shared-ui/format.ts), which the staff console uses too.
export * from '../../../shared-ui/format.ts'
