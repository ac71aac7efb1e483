/**
 * Published test vectors for the `format` checks of lib/contract/value-formats.ts.
 *
 * Source: JSON-Schema-Test-Suite (https://github.com/json-schema-org/JSON-Schema-Test-Suite), files
 * tests/draft2020-12/optional/format/{email,uri,date,date-time}.json — the string cases, copied verbatim
 * with their descriptions (the suite's "ignores non-strings" cases are left out: our checks only see strings).
 * Extra cases from the RFCs' own text are marked with their section.
 *
 * `departures` lists the vectors we answer differently on purpose, each with its reason; the unit test
 * asserts our answer for them too, so a change of mind is a visible change here.
 */

export interface Vector {
  readonly description: string;
  readonly data: string;
  readonly valid: boolean;
}

export interface Departure extends Vector {
  /** Our answer, the opposite of `valid`. */
  readonly ours: boolean;
  readonly why: string;
}

const v = (description: string, data: string, valid: boolean): Vector => ({ description, data, valid });

export const EMAIL_VECTORS: readonly Vector[] = [
  v('a valid e-mail address', 'joe.bloggs@example.com', true),
  v('an invalid e-mail address', '2962', false),
  v('tilde in local part is valid', 'te~st@example.com', true),
  v('tilde before local part is valid', '~test@example.com', true),
  v('tilde after local part is valid', 'test~@example.com', true),
  v('a quoted string with a space in the local part is valid', '"joe bloggs"@example.com', true),
  v('a quoted string with a double dot in the local part is valid', '"joe..bloggs"@example.com', true),
  v('a quoted string with a @ in the local part is valid', '"joe@bloggs"@example.com', true),
  v('dot before local part is not valid', '.test@example.com', false),
  v('dot after local part is not valid', 'test.@example.com', false),
  v('two separated dots inside local part are valid', 'te.s.t@example.com', true),
  v('two subsequent dots inside local part are not valid', 'te..st@example.com', false),
  v('an invalid domain', 'joe.bloggs@invalid=domain.com', false),
  v('an invalid IPv4-address-literal', 'joe.bloggs@[127.0.0.300]', false),
  v('two email addresses is not valid', 'user1@oceania.org, user2@oceania.org', false),
  v('full "From" header is invalid', '"Winston Smith" <winston.smith@recdep.minitrue> (Records Department)', false),
  v('local part is required', '@example.com', false),
  v('domain is required', 'joe.bloggs@', false),
  v('unquoted space in local part is invalid', 'joe bloggs@example.com', false),
  v('an empty quoted string in the local part is valid', '""@iana.org', true),
  v('a quoted string containing only a space in the local part is valid', '" "@iana.org', true),
  v('consecutive hyphens inside a domain label are valid', 'test@c--n.com', true),
  v('a domain label starting with a digit is valid', 'test@123.com', true),
  v('a fullwidth commercial at is not a valid separator', 'a\uff20iana.org', false),
  v('a non-ASCII character in a quoted pair is not valid', '"test\\\u00a9"@iana.org', false),
  v('a trailing line feed is not valid', 'test@iana.org\n', false),
  v('a trailing carriage return is not valid', 'test@iana.org\r', false),
  v('a trailing space is not valid', 'a@iana.org ', false),
  v('a leading space is not valid', ' a@iana.org', false),
  v('a tab in the local part is not valid', 'a\tb@iana.org', false),
  v('a delete character in the local part is not valid', '\u007f@iana.org', false),
  v('a quoted string with no special characters in the local part is valid', '"test"@iana.org', true),
  v('a quoted pair in the local part is valid', '"\\a"@iana.org', true),
  v('an escaped double quote in the local part is valid', '"\\""@iana.org', true),
  v('an escaped backslash in the local part is valid', '"\\\\"@iana.org', true),
  v('an unescaped double quote in an unquoted local part is not valid', 'test"@iana.org', false),
  v('text after the closing double quote in the local part is not valid', '"test"test@iana.org', false),
  v('an unclosed double quote in the local part is not valid', '"test@iana.org', false),
  v('two unquoted @ signs are not valid', 'a@b@c.org', false),
  v('a backslash-escaped @ in an unquoted local part is not valid', 'test\\@test@iana.org', false),
  v('an address literal in the local part position is not valid', '[1.2.3.4]@iana.org', false),
  v('an empty string is not valid', '', false),
  v('a domain label starting with a hyphen is not valid', 'test@-iana.org', false),
  v('a domain label ending with a hyphen is not valid', 'test@iana-.com', false),
  v('a domain starting with a dot is not valid', 'test@.iana.org', false),
  v('a domain ending with a dot is not valid', 'test@iana.org.', false),
  v('two subsequent dots inside the domain are not valid', 'test@iana..com', false),
  v('an unclosed address literal is not valid', 'test@[1.2.3.4', false),
  v('empty brackets after the @ are not valid', 'a@[]', false),
  v('an IPv4-address-literal with three octets is not valid', 'a@[1.2.3]', false),
  v('an IPv4-address-literal with five octets is not valid', 'a@[1.2.3.4.5]', false),
  v('bracketed content that is not an address is not valid', 'test@[RFC-5322-domain-literal]', false),
  v('a domain label before the opening bracket is not valid', 'test@a[255.255.255.255]', false),
  v('a comma in an unquoted local part is not valid', 'a,b@iana.org', false),
  v('a semicolon in an unquoted local part is not valid', 'a;b@iana.org', false),
  v('a colon in an unquoted local part is not valid', 'a:b@iana.org', false),
  v('a parenthesis in an unquoted local part is not valid', 'test(comment)@iana.org', false),
  v('a parenthesis in the domain is not valid', 'a@b(c).org', false),
  // RFC 5321 §4.5.3.1.1: a local part of at most 64 octets.
  v('RFC 5321 §4.5.3.1.1: a 64-octet local part is valid', `${'a'.repeat(64)}@example.com`, true),
  v('RFC 5321 §4.5.3.1.1: a 65-octet local part is not valid', `${'a'.repeat(65)}@example.com`, false),
];

const PRACTICAL = 'practical subset: the domain must be a name with a top-level domain of letters';
const INTERNATIONAL = 'RFC 6531 (SMTPUTF8) addresses are real mail; the suite keeps them for idn-email';

export const EMAIL_DEPARTURES: readonly Departure[] = [
  { ...v('an IPv4-address-literal after the @ is valid', 'joe.bloggs@[127.0.0.1]', true), ours: false, why: PRACTICAL },
  { ...v('an IPv6-address-literal after the @ is valid', 'joe.bloggs@[IPv6:::1]', true), ours: false, why: PRACTICAL },
  { ...v('a lowercase IPv6 tag in an address literal is valid', 'a@[ipv6:::1]', true), ours: false, why: PRACTICAL },
  { ...v('a domain that looks like an IPv4 address without brackets is valid', 'test@255.255.255.255', true), ours: false, why: PRACTICAL },
  { ...v('a single-label domain is valid', 'test@io', true), ours: false, why: PRACTICAL },
  { ...v('a non-ASCII character in the local part is not valid', 'a\u00e9@iana.org', false), ours: true, why: INTERNATIONAL },
  { ...v('a non-ASCII character in the domain is not valid', 'a@\u00e9.org', false), ours: true, why: INTERNATIONAL },
];

/** RFC 3986 absolute URIs (isUri). */
export const URI_VECTORS: readonly Vector[] = [
  v('a valid URL with anchor tag', 'http://foo.bar/?baz=qux#quux', true),
  v('a valid URL with anchor tag and parentheses', 'http://foo.com/blah_(wikipedia)_blah#cite-1', true),
  v('a valid URL with URL-encoded stuff', 'http://foo.bar/?q=Test%20URL-encoded%20stuff', true),
  v('a valid puny-coded URL ', 'http://xn--nw2a.xn--j6w193g/', true),
  v('a valid URL with many special characters', "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com", true),
  v('a valid URL based on IPv4', 'http://223.255.255.254', true),
  v('a valid URL with ftp scheme', 'ftp://ftp.is.co.za/rfc/rfc1808.txt', true),
  v('a valid URL for a simple text file', 'http://www.ietf.org/rfc/rfc2396.txt', true),
  v('a valid URL', 'ldap://[2001:db8::7]/c=GB?objectClass?one', true),
  v('a valid mailto URI', 'mailto:John.Doe@example.com', true),
  v('a valid newsgroup URI', 'news:comp.infosystems.www.servers.unix', true),
  v('a valid tel URI', 'tel:+1-816-555-1212', true),
  v('a valid URN', 'urn:oasis:names:specification:docbook:dtd:xml:4.1.2', true),
  v('an invalid protocol-relative URI Reference', '//foo.bar/?baz=qux#quux', false),
  v('an invalid relative URI Reference', '/abc', false),
  v('an invalid URI', '\\\\WINDOWS\\fileshare', false),
  v('an invalid URI though valid URI reference', 'abc', false),
  v('an invalid URI with spaces', 'http:// shouldfail.com', false),
  v('an invalid URI with spaces and missing scheme', ':// should fail', false),
  v('an invalid URI with comma in scheme', 'bar,baz:foo', false),
  v('invalid userinfo', 'https://[@example.org/test.txt', false),
  v('unescaped non US-ASCII characters', 'https://example.org/foobar\u00ae.txt', false),
  v('invalid backslash character', 'https://example.org/foobar\\.txt', false),
  v('invalid " character', 'https://example.org/foobar".txt', false),
  v('invalid <> characters', 'https://example.org/foobar<>.txt', false),
  v('invalid {} characters', 'https://example.org/foobar{}.txt', false),
  v('invalid ^ character', 'https://example.org/foobar^.txt', false),
  v('invalid ` character', 'https://example.org/foobar`.txt', false),
  v('invalid SPACE character', 'https://example.org/foo bar.txt', false),
  v('invalid | character', 'https://example.org/foobar|.txt', false),
  v('URI with leading-zero IPv4 is structurally valid as a reg-name', 'http://087.10.0.1/', true),
  v('URI with out-of-bounds IPv4 is structurally valid as a reg-name', 'http://999.999.999.999/', true),
  v('invalid percent-encoding with non-hex digits', 'http://example.com/%6G', false),
  v('incomplete percent-encoding triplet', 'http://example.com/%A', false),
  v('lone percent sign is invalid', 'http://example.com/%', false),
  v('scheme must start with a letter', '1http://example.com', false),
  v('invalid character in scheme', 'ht_tp://example.com', false),
  v('non-numeric port is invalid', 'http://example.com:abc/path', false),
  v('port digit boundary: one above range (colon)', 'http://a.com:8:0', false),
  v('above-ceiling DIGIT in port', 'http://a.com::', false),
  v('port may be empty when colon is present', 'http://a.com:', true),
  v('port has no RFC 3986 upper bound', 'http://a.com:999999999', true),
  v('authority with empty host and explicit port is valid', 'http://:80', true),
  v('userinfo may be empty', 'http://@a.com', true),
  v('userinfo with non-empty value and empty host is valid', 'http://user@', true),
  v('host reg-name may contain sub-delimiters', "http://!$&'()*+,;=.com", true),
  v('host reg-name may end with a dot', 'http://example.com.', true),
  v('tilde is valid in reg-name because it is an unreserved character', 'http://exa~mple.com/', true),
  v('underscore is valid in reg-name because it is an unreserved character', 'http://under_score.com/', true),
  // RFC 3986 §1.1.2 examples.
  v('RFC 3986 §1.1.2: ftp', 'ftp://ftp.is.co.za/rfc/rfc1808.txt', true),
  v('RFC 3986 §1.1.2: IPv6 literal', 'ldap://[2001:db8::7]/c=GB?objectClass?one', true),
  v('RFC 3986 §1.1.2: telnet with port', 'telnet://192.0.2.16:80/', true),
  v('RFC 3986 §1.1.2: urn', 'urn:oasis:names:specification:docbook:dtd:xml:4.1.2', true),
  v('RFC 3986 §3.2.2: IPvFuture literal', 'http://[v7.fe80::1]/', true),
  v('RFC 3986 §3.2.2: an IPv6 literal with too many groups', 'http://[1:2:3:4:5:6:7:8:9]/', false),
  v('RFC 3986 §2.1: a tab is not a URI character', 'https://example.com/a\tb', false),
];

export const DATE_VECTORS: readonly Vector[] = [
  v('a valid date string', '1963-06-19', true),
  v('a valid date string with 31 days in January', '2020-01-31', true),
  v('a invalid date string with 32 days in January', '2020-01-32', false),
  v('a valid date string with 28 days in February (normal)', '2021-02-28', true),
  v('a invalid date string with 30 days in February (leap)', '2020-02-30', false),
  v('a valid date string with 30 days in April', '2020-04-30', true),
  v('a invalid date string with 31 days in April', '2020-04-31', false),
  v('an invalid date string', '06/19/1963', false),
  v('only RFC3339 not all of ISO 8601 are valid', '2013-350', false),
  v('non-padded month dates are not valid', '1998-1-20', false),
  v('non-padded day dates are not valid', '1998-01-1', false),
  v('invalid month', '1998-13-01', false),
  v('2021 is not a leap year', '2021-02-29', false),
  v('2020 is a leap year', '2020-02-29', true),
  v("invalid non-ASCII '৪' (a Bengali 4)", '1963-06-1৪', false),
  v('ISO8601 / non-RFC3339: YYYYMMDD without dashes', '20230328', false),
  v('ISO8601 / non-RFC3339: week number with day of week', '2023-W13-2', false),
  v('an invalid time string in date-time format', '2020-11-28T23:55:45Z', false),
  v('century year 0100 is not a leap year', '0100-02-29', false),
  v('century year 0400 is a leap year', '0400-02-29', true),
  v('century year 2100 is not a leap year', '2100-02-29', false),
  v('invalid: leading whitespace is not permitted', ' 2024-01-15', false),
  v('invalid: trailing whitespace is not permitted', '2024-01-15 ', false),
  v('invalid: month 00', '2024-00-15', false),
  v('invalid: day 00', '2024-01-00', false),
  v('invalid: empty string', '', false),
  v('invalid: trailing Z after full-date', '2020-01-01Z', false),
  v('valid: four-digit year 0001', '0001-01-01', true),
  v('invalid: five-digit year (N+1 digits)', '12020-01-01', false),
  v('invalid: positive sign prefix on year', '+2020-01-01', false),
  v('invalid: duplicated first hyphen', '2020--01-01', false),
];

export const DATE_TIME_VECTORS: readonly Vector[] = [
  v('a valid date-time string', '1963-06-19T08:30:06.283185Z', true),
  v('a valid date-time string without second fraction', '1963-06-19T08:30:06Z', true),
  v('a valid date-time string with plus offset', '1937-01-01T12:00:27.87+00:20', true),
  v('a valid date-time string with minus offset', '1990-12-31T15:59:50.123-08:00', true),
  v('a valid date-time with a leap second, UTC', '1998-12-31T23:59:60Z', true),
  v('a valid date-time with a leap second, with minus offset', '1998-12-31T15:59:60.123-08:00', true),
  v('an invalid date-time past leap second, UTC', '1998-12-31T23:59:61Z', false),
  v('an invalid date-time with leap second on a wrong minute, UTC', '1998-12-31T23:58:60Z', false),
  v('an invalid date-time with leap second on a wrong hour, UTC', '1998-12-31T22:59:60Z', false),
  v('an invalid day in date-time string', '1990-02-31T15:59:59.123-08:00', false),
  v('an invalid offset in date-time string', '1990-12-31T15:59:59-24:00', false),
  v('an invalid closing Z after time-zone offset', '1963-06-19T08:30:06.28123+01:00Z', false),
  v('an invalid hour in date-time string', '1990-12-31T24:00:00Z', false),
  v('an invalid minute in date-time string', '1990-12-31T15:60:00Z', false),
  v('an invalid offset minute in date-time string', '1990-12-31T10:00:00+10:60', false),
  v('an invalid date-time string', '06/19/1963 08:30:06 PST', false),
  v('case-insensitive T and Z', '1963-06-19t08:30:06.283185z', true),
  v('only RFC3339 not all of ISO 8601 are valid', '2013-350T01:01:01', false),
  v('invalid non-padded month dates', '1963-6-19T08:30:06.283185Z', false),
  v('invalid non-padded day dates', '1963-06-1T08:30:06.283185Z', false),
  v("invalid non-ASCII '৪' (a Bengali 4) in date portion", '1963-06-1৪T00:00:00Z', false),
  v("invalid non-ASCII '৪' (a Bengali 4) in time portion", '1963-06-11T0৪:00:00Z', false),
  v('invalid extended year', '+11963-06-19T08:30:06.283185Z', false),
  v('a second fraction of fifteen nines is valid', '1985-04-12T00:59:59.999999999999999Z', true),
  // RFC 3339 §5.8 examples.
  v('RFC 3339 §5.8: UTC', '1985-04-12T23:20:50.52Z', true),
  v('RFC 3339 §5.8: offset', '1996-12-19T16:39:57-08:00', true),
  v('RFC 3339 §5.8: leap second', '1990-12-31T23:59:60Z', true),
  v('RFC 3339 §5.8: leap second in another zone', '1990-12-31T15:59:60-08:00', true),
  v('RFC 3339 §5.8: Netherlands 1937', '1937-01-01T12:00:27.87+00:20', true),
];
