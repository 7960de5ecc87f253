/** Groups linked for notifications: one group per owner, one owner per group. */
import { z } from 'zod';
import { isoDate, validated, withPatch } from './validation.ts';

export const groupSchema = z.object({
  ownerId: z.number().int(),
  title: z.string().optional(),
  linkedAt: isoDate,
});
export type GroupRecord = z.infer<typeof groupSchema>;

/** A linked group with its chat id. */
export interface LinkedGroup extends GroupRecord {
  chatId: number;
}

/** The link record of a group `ownerId` links at `now`, validated. */
export function newGroupRecord(input: { ownerId: number; title?: string | undefined }, now: Date): GroupRecord {
  return validated(groupSchema, withPatch({ ownerId: input.ownerId, linkedAt: now.toISOString() }, { title: input.title }), 'group');
}
