import { customAlphabet } from 'nanoid';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 text: 22 chars carry ~131 bits. */
export const randomBase62 = (length: number): string => customAlphabet(BASE62, length)();

/** Record ids read like `ast_4f9K...`, so a stray id in a log says what it is. */
export const newId = (prefix: string): string => `${prefix}_${randomBase62(20)}`;
