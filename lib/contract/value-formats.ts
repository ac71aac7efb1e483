/**
 * Checks for the `format` keywords of value_schema (DESIGN.md §5), written from the grammars of their RFCs
 * rather than left to a parser that repairs what it reads (the WHATWG URL parser percent-encodes spaces and
 * non-ASCII, drops tabs and fixes "https:example.com"). Pure string tests with no Node- or browser-only
 * API, so the sandbox, the BFF and the form agree on every value. Tested against the JSON-Schema-Test-Suite
 * vectors (tests/unit/support/format-vectors.ts), which also lists where we depart from them and why.
 */

export type FormatCheck = (text: string) => boolean;

// ---- email: RFC 5321 §4.1.2 Mailbox (dot-atom or quoted local part), a practical subset -------------------

// atext of RFC 5322 §3.2.3, plus letters, marks and digits of any script (RFC 6531, internationalised mail).
const ATOM = "(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[\\p{L}\\p{M}\\p{N}])+";
// RFC 5321 qtextSMTP (printable ASCII but " and \, space included) or a quoted pair of printable ASCII.
const QUOTED = '"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*"';
const LOCAL_PART = new RegExp(`^(?:${ATOM}(?:\\.${ATOM})*|${QUOTED})$`, 'u');
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;
const TOP_LEVEL = /^\p{L}{2,}$/u;

/**
 * Practical on purpose, beyond the RFC: the domain must be a name with a top-level domain of letters
 * (people mistype "name@gmail" far more often than they own a single-label domain or an address literal).
 */
function isMailDomain(domain: string): boolean {
  if (domain.length === 0 || domain.length > 253) return false;
  const labels = domain.split('.');
  if (labels.length < 2 || !TOP_LEVEL.test(labels[labels.length - 1] as string)) return false;
  return labels.every((label) => label.length <= 63 && DOMAIN_LABEL.test(label));
}

export const isEmail: FormatCheck = (text) => {
  const at = text.lastIndexOf('@');
  if (at <= 0 || text.length > 254) return false;
  const local = text.slice(0, at);
  // RFC 5321 §4.5.3.1.1: at most 64 octets; counted in UTF-16 units, close enough for the rare non-ASCII.
  return local.length <= 64 && LOCAL_PART.test(local) && isMailDomain(text.slice(at + 1));
};

// ---- date and date-time: RFC 3339 §5.6 --------------------------------------------------------------------

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
// time-secfrac is one or more digits; T and Z may be lowercase (RFC 3339 §5.6, note on case).
const DATE_TIME_SHAPE = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** Two or four ASCII digits at `at`, read without slicing (the shape regex has already vouched for them). */
function digits(text: string, at: number, count: 2 | 4): number {
  let n = 0;
  for (let i = at; i < at + count; i++) n = n * 10 + (text.charCodeAt(i) - 48);
  return n;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The YYYY-MM-DD at the start of `text` names a real day of the (proleptic Gregorian) calendar. */
function isCalendarDate(text: string): boolean {
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export const isDate: FormatCheck = (text) => DATE_SHAPE.test(text) && isCalendarDate(text);

export const isDateTime: FormatCheck = (text) => {
  if (!DATE_TIME_SHAPE.test(text) || !isCalendarDate(text)) return false;
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (hour > 23 || minute > 59 || second > 60) return false;
  const last = text.charCodeAt(text.length - 1);
  const utc = last === 90 || last === 122; // Z or z
  let offsetMinutes = 0;
  if (!utc) {
    const at = text.length - 6;
    const offsetHour = digits(text, at + 1, 2);
    const offsetMinute = digits(text, at + 4, 2);
    if (offsetHour > 23 || offsetMinute > 59) return false;
    offsetMinutes = (text[at] === '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute);
  }
  if (second < 60) return true;
  // A leap second (RFC 3339 §5.7) is only ever the last second of a UTC day: 23:59:60Z.
  const utcMinute = (((hour * 60 + minute - offsetMinutes) % 1440) + 1440) % 1440;
  return utcMinute === 23 * 60 + 59;
};

// ---- uri: RFC 3986 §3 (an absolute URI), then narrowed to web addresses ------------------------------------

const PCT = '%[0-9A-Fa-f]{2}';
const UNRESERVED_SUB = "A-Za-z0-9\\-._~!$&'()*+,;=";
const PCHAR = `(?:[${UNRESERVED_SUB}:@]|${PCT})`;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const USERINFO = new RegExp(`^(?:[${UNRESERVED_SUB}:]|${PCT})*$`);
const REG_NAME = new RegExp(`^(?:[${UNRESERVED_SUB}]|${PCT})*$`);
const PORT = /^\d*$/;
const PATH = new RegExp(`^(?:${PCHAR}|/)*$`);
const QUERY_OR_FRAGMENT = new RegExp(`^(?:${PCHAR}|[/?])*$`);
const IPV_FUTURE = new RegExp(`^[vV][0-9A-Fa-f]+\\.[${UNRESERVED_SUB}:]+$`);
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEX16 = /^[0-9A-Fa-f]{1,4}$/;

/** RFC 3986 IPv6address: eight 16-bit groups, the last two may be an IPv4 address, one "::" may stand for zeros. */
function isIpv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groups(halves[0] as string);
  const tail = halves.length === 2 ? groups(halves[1] as string) : [];
  const all = [...head, ...tail];
  let count = 0;
  for (let i = 0; i < all.length; i++) {
    const group = all[i] as string;
    if (i === all.length - 1 && group.includes('.')) {
      if (!IPV4.test(group)) return false;
      count += 2;
    } else if (HEX16.test(group)) count += 1;
    else return false;
  }
  return halves.length === 2 ? count <= 7 : count === 8;
}

function isHost(host: string): boolean {
  if (host.startsWith('[')) {
    if (!host.endsWith(']')) return false;
    const inner = host.slice(1, -1);
    return isIpv6(inner) || IPV_FUTURE.test(inner);
  }
  return REG_NAME.test(host);
}

interface UriParts {
  readonly scheme: string;
  /** Present only when the hier-part starts with "//". */
  readonly host: string | undefined;
}

/** The parts of an absolute URI (RFC 3986 §3, `URI`), or undefined when the text is not one. */
function parseUri(text: string): UriParts | undefined {
  const colon = text.indexOf(':');
  if (colon <= 0 || !SCHEME.test(text.slice(0, colon))) return undefined;
  let rest = text.slice(colon + 1);
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    if (!QUERY_OR_FRAGMENT.test(rest.slice(hash + 1))) return undefined;
    rest = rest.slice(0, hash);
  }
  const question = rest.indexOf('?');
  if (question >= 0) {
    if (!QUERY_OR_FRAGMENT.test(rest.slice(question + 1))) return undefined;
    rest = rest.slice(0, question);
  }
  const scheme = text.slice(0, colon).toLowerCase();
  if (!rest.startsWith('//')) {
    // path-absolute, path-rootless or path-empty ("//" would start an authority, handled below).
    return PATH.test(rest) ? { scheme, host: undefined } : undefined;
  }
  const slash = rest.indexOf('/', 2);
  const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
  if (slash >= 0 && !PATH.test(rest.slice(slash))) return undefined;
  const at = authority.lastIndexOf('@');
  if (at >= 0 && !USERINFO.test(authority.slice(0, at))) return undefined;
  const hostPort = authority.slice(at + 1);
  // The port follows the last colon, unless that colon is inside an IP literal's brackets.
  const portColon = hostPort.lastIndexOf(':');
  const hasPort = portColon >= 0 && portColon > hostPort.lastIndexOf(']');
  const host = hasPort ? hostPort.slice(0, portColon) : hostPort;
  if (hasPort && !PORT.test(hostPort.slice(portColon + 1))) return undefined;
  return isHost(host) ? { scheme, host } : undefined;
}

/** Any absolute URI of RFC 3986 (mailto:, urn:, ftp: …): printable ASCII only, every % a full escape. */
export const isUri: FormatCheck = (text) => parseUri(text) !== undefined;

/**
 * What `format: uri` means to the form's people: a web address, http or https with a host. Every such
 * address is an RFC 3986 URI; the narrowing is ours, and the field's message says so.
 */
export const isWebUrl: FormatCheck = (text) => {
  const parts = parseUri(text);
  return parts !== undefined && (parts.scheme === 'http' || parts.scheme === 'https') && !!parts.host;
};

/** The check for a format name; a format outside the subset has none and is ignored. */
export function formatCheck(format: string): FormatCheck | undefined {
  // A switch rather than a lookup object, so "constructor" or "toString" cannot find Object.prototype.
  switch (format) {
    case 'email':
      return isEmail;
    case 'uri':
      return isWebUrl;
    case 'date':
      return isDate;
    case 'date-time':
      return isDateTime;
    default:
      return undefined;
  }
}
