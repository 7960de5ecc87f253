/** Game shop orders as the bot keeps them. */
import { z } from 'zod';
import { isoDate } from './validation.ts';

/** A game shop order as the bot keeps it: what the user sees in /orders and the reminder needs. */
export const gameOrderSchema = z.object({
  orderId: z.string().min(1),
  userId: z.number().int(),
  chatId: z.number().int(),
  game: z.string(),
  gameTitle: z.string().optional(),
  productId: z.number().int(),
  productName: z.string().optional(),
  paymentMethodId: z.number().int(),
  paymentName: z.string().optional(),
  quantity: z.number().int().positive(),
  totalPrice: z.number(),
  paymentStatus: z.string(),
  buyStatus: z.string().optional(),
  paymentUrl: z.string().optional(),
  paymentCode: z.string().optional(),
  qrUrl: z.string().nullable().optional(),
  expiredAt: z.string(),
  createdAt: isoDate,
  /** True once the expiry reminder is queued in the outbox (so it is queued once). */
  reminderQueued: z.boolean().optional(),
  /** The order summary's confirmation id: one confirmation creates at most one order. */
  confirmationId: z.string().min(1).optional(),
  /** Who the order was for, offered again on the user's next order of the game. */
  playerId: z.string().optional(),
  server: z.string().optional(),
  whatsapp: z.string().optional(),
});
export type GameOrderRecord = z.infer<typeof gameOrderSchema>;
