import { Type } from 'typebox'

// Request shapes of the receipt routes (path keys; the booking keys are named as the booking routes name them).

export const BookingReceiptsParams = Type.Object({ booking: Type.String({ description: 'Court booking id' }) })
export const IndoorReceiptsParams = Type.Object({
  indoorGameBooking: Type.String({ description: 'Indoor game booking id' }),
})
export const ReceiptParams = Type.Object({ receipt: Type.String({ description: 'Receipt (or credit note) id' }) })
