/**
 * vitest's asymmetric matchers, typed as the value they stand in for. vitest declares them `any`,
 * and an `any` inside a typed object literal hides mistakes (the type-aware lint refuses it), so
 * tests put these where a string, number or record is expected.
 */
import { expect } from 'vitest';

/** Any string. */
export const anyString = (): string => expect.any(String) as string;

/** Any number. */
export const anyNumber = (): number => expect.any(Number) as number;

/** A string matching `pattern`. */
export const stringMatching = (pattern: RegExp | string): string => expect.stringMatching(pattern) as string;

/** A string containing `text`. */
export const stringContaining = (text: string): string => expect.stringContaining(text) as string;

/** A record with at least the given fields. */
export const objectContaining = <T extends object>(fields: T): T => expect.objectContaining<unknown>(fields) as T;
