import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { driverCode } from './database-errors';

// pg_trgm pads a word with two blanks before it and one after, where the pattern does not
// put a wildcard there; a word (with its padding) shorter than three characters gives nothing.
const LEFT_PADDING = 2;
const RIGHT_PADDING = 1;
const TRIGRAM = 3;
// Characters learned from the database, at most so many (then learned again): a client cannot
// grow the process by sending every code point.
const LEARNED_CHARACTERS = 10_000;
// ASCII letters and digits are word characters in every locale (pg_trgm asks isalnum for
// single bytes); other ASCII characters are not.
const ASCII_WORD = /^[a-z0-9]$/i;
// Where no database says (SQLite, PostgreSQL without pg_trgm: no trigram index either):
// Unicode's letters and digits.
const UNICODE_WORD = /^[\p{L}\p{N}]$/u;
const UNDEFINED_FUNCTION = '42883';

/**
 * Whether pg_trgm takes at least one trigram from the LIKE pattern `%value%`, as its
 * `generate_wildcard_trgm` does: the pattern's words are its runs of word characters; a word
 * inside the value is padded on the side of each non-word neighbour, one at either end of
 * the value is not padded on the side of the wildcard. Without a trigram the index is read
 * whole (SPEC 1.6: the search is costly).
 */
export function likeYieldsTrigram(value: string, isWordCharacter: (c: string) => boolean): boolean {
  const characters = [...value];
  let start = 0;
  while (start < characters.length) {
    if (!isWordCharacter(characters[start])) {
      start += 1;
      continue;
    }
    let end = start;
    while (end < characters.length && isWordCharacter(characters[end])) end += 1;
    const padding = (start > 0 ? LEFT_PADDING : 0) + (end < characters.length ? RIGHT_PADDING : 0);
    if (end - start + padding >= TRIGRAM) return true;
    start = end;
  }
  return false;
}

/**
 * Which characters the database's pg_trgm counts as word characters: its own rule (the C
 * library's `iswalnum` under the database's ctype), asked once per character, not guessed from
 * Unicode's classes, which call letters words that the database's tables do not know, and
 * count vulgar fractions, superscripts and circled digits as digits where it does not.
 */
@Injectable()
export class TrigramWords {
  private readonly learned = new Map<string, boolean>();
  // Whether the database can be asked: PostgreSQL with pg_trgm (in `public`, as the kit's
  // search index migrations create it). Without it there is no trigram index either.
  private asking: boolean;

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {
    this.asking = dataSource.options.type === 'postgres';
  }

  /** Asks the database about the characters of `values` it has not been asked about. */
  async learn(values: readonly string[]): Promise<void> {
    if (!this.asking) return;
    const unknown = new Set<string>();
    for (const value of values) {
      for (const character of value) {
        if (character > '\x7f' && !this.learned.has(character)) unknown.add(character);
      }
    }
    if (unknown.size === 0) return;
    if (this.learned.size + unknown.size > LEARNED_CHARACTERS) this.learned.clear();
    // A character alone is one word when it is a word character: show_trgm gives its padded
    // trigrams; otherwise it gives none.
    try {
      const rows = await this.dataSource.query<{ c: string; word: boolean }[]>(
        `SELECT c, cardinality(public.show_trgm(c)) > 0 AS word FROM unnest($1::text[]) AS c`,
        [[...unknown]],
      );
      for (const { c, word } of rows) this.learned.set(c, word);
    } catch (error) {
      if (driverCode(error) !== UNDEFINED_FUNCTION) throw error;
      this.asking = false;
    }
  }

  /** Whether the trigram index can look `value` up (the characters of it learned first). */
  searchable(value: string): boolean {
    return likeYieldsTrigram(value.toLowerCase(), (character) => this.isWord(character));
  }

  private isWord(character: string): boolean {
    if (character <= '\x7f') return ASCII_WORD.test(character);
    if (!this.asking) return UNICODE_WORD.test(character);
    return this.learned.get(character) ?? false;
  }
}
