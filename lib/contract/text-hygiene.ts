/**
 * Characters no stored text may hold: NUL, which PostgreSQL refuses and C-string code cuts at;
 * a lone UTF-16 surrogate, which is no character at all and turns into U+FFFD (or an error) on the way to
 * UTF-8; and the bidirectional embedding, override and isolate controls, which make text display as
 * something other than what it says ("Trojan Source", CVE-2021-42574). Refused with a reason rather than
 * removed, so nothing a person typed is changed without them knowing. The marks U+200E / U+200F stay
 * allowed: right-to-left writers need them and they cannot reorder text.
 */

export type UnsafeTextKind = 'nul' | 'lone_surrogate' | 'bidi_control';

export interface UnsafeText {
  readonly kind: UnsafeTextKind;
  /** Where the first one is, in UTF-16 units. */
  readonly index: number;
  readonly message: string;
}

const hex = (unit: number) => `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`;

const isBidiControl = (unit: number) => (unit >= 0x202a && unit <= 0x202e) || (unit >= 0x2066 && unit <= 0x2069);

export const UNSAFE_TEXT_MESSAGES = {
  nul: 'Contains an invisible null character (U+0000), which cannot be saved: remove it',
  lone_surrogate: 'Contains a broken character (half of an emoji or symbol), which cannot be saved: type it again',
  bidi_control: (unit: number): string =>
    `Contains an invisible text-direction control (${hex(unit)}), which can disguise what the text says: remove it`,
} as const;

/** The first unsafe character of a text, or null when there is none. One pass, no allocation when clean. */
export function findUnsafeText(text: string): UnsafeText | null {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // Everything below the surrogates but NUL and the bidi controls is fine: the common case costs one compare.
    if (unit === 0) return { kind: 'nul', index: i, message: UNSAFE_TEXT_MESSAGES.nul };
    if (unit < 0x202a) continue;
    if (isBidiControl(unit)) return { kind: 'bidi_control', index: i, message: UNSAFE_TEXT_MESSAGES.bidi_control(unit) };
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    return { kind: 'lone_surrogate', index: i, message: UNSAFE_TEXT_MESSAGES.lone_surrogate };
  }
  return null;
}
