/**
 * Vocabulary for mapping evidence onto choices and codes. Keyed by the words of a choice's label (its value with
 * underscores read as spaces), so it serves any contract whose choices use ordinary business words.
 */

/** Further ways of saying a choice, by the choice's folded label. */
export const CHOICE_SYNONYMS: Record<string, string[]> = {
  'sole trader': ['sole trader', 'sole proprietor', 'sole proprietorship', 'self employed'],
  partnership: ['partnership', 'general partnership'],
  'limited company': ['limited company', 'private limited company', 'ltd company', 'ltd'],
  llp: ['llp', 'limited liability partnership'],
  llc: ['llc', 'limited liability company'],
  corporation: ['corporation', 'corp', 'inc', 'c corp', 's corp'],
  nonprofit: ['nonprofit', 'charity', 'charitable', 'community interest company', 'cic'],
  agriculture: ['agriculture', 'agricultural', 'farm', 'farming', 'farms', 'horticulture'],
  construction: ['construction', 'building', 'builders', 'builder', 'contractor', 'contractors', 'joinery', 'landscaping'],
  manufacturing: ['manufacturing', 'manufacturer', 'manufacture', 'factory', 'production', 'engineering', 'fabrication'],
  retail: ['retail', 'retailer', 'shop', 'shops', 'store', 'stores', 'ecommerce', 'e commerce', 'online shop'],
  hospitality: ['hospitality', 'cafe', 'cafes', 'coffee shop', 'restaurant', 'restaurants', 'hotel', 'hotels', 'pub', 'bar', 'catering', 'bakery'],
  healthcare: ['healthcare', 'health care', 'health', 'clinic', 'medical', 'dental', 'pharmacy', 'veterinary', 'care home'],
  'professional services': ['professional services', 'consultancy', 'consulting', 'accountancy', 'legal services', 'agency', 'printing'],
  technology: ['technology', 'software', 'saas', 'it services', 'tech', 'digital'],
  'transport logistics': ['transport', 'logistics', 'haulage', 'freight', 'courier', 'delivery', 'shipping'],
  'working capital': ['working capital', 'cash flow', 'cashflow', 'day to day running'],
  equipment: ['equipment', 'machinery', 'machine', 'machines', 'tools', 'plant', 'kit', 'fit out'],
  property: ['property', 'premises purchase', 'buy premises', 'real estate', 'building purchase', 'freehold'],
  refinancing: ['refinancing', 'refinance', 'refinanced', 'consolidate', 'consolidation'],
  expansion: ['expansion', 'expand', 'expanding', 'growth', 'grow', 'new site', 'second site', 'new branch'],
  inventory: ['inventory', 'stock', 'stock purchase'],
  acquisition: ['acquisition', 'acquire', 'acquiring', 'buy a business', 'buyout', 'buy out'],
  'within two weeks': ['within two weeks', 'within 2 weeks', 'two weeks', '2 weeks', 'fortnight', 'urgently', 'asap', 'as soon as possible'],
  'within one month': ['within one month', 'within 1 month', 'within a month', 'one month', '1 month', 'a month', 'four weeks', '4 weeks', '30 days'],
  'within three months': ['within three months', 'within 3 months', 'three months', '3 months', '90 days', 'next quarter'],
  flexible: ['flexible', 'no rush', 'no deadline', 'not urgent'],
  email: ['email', 'by email'],
  phone: ['phone', 'telephone', 'call', 'by phone'],
  either: ['either', 'both', 'email or phone', 'phone or email', 'no preference'],
  vehicle: ['vehicle', 'vehicles', 'van', 'vans', 'car', 'cars', 'lorry', 'truck'],
  receivables: ['receivables', 'debtors', 'invoices', 'debtor book'],
  yes: ['yes'],
  no: ['no'],
};

/** Country names and codes → ISO 3166-1 alpha-2, for address fields that take a two-letter code. */
export const COUNTRY_CODES: Record<string, string> = {
  'united kingdom': 'GB',
  uk: 'GB',
  gb: 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  'united states': 'US',
  'united states of america': 'US',
  usa: 'US',
  us: 'US',
  america: 'US',
  ireland: 'IE',
  'republic of ireland': 'IE',
  canada: 'CA',
  australia: 'AU',
  'new zealand': 'NZ',
  germany: 'DE',
  france: 'FR',
  spain: 'ES',
  italy: 'IT',
  netherlands: 'NL',
  belgium: 'BE',
  portugal: 'PT',
  sweden: 'SE',
  norway: 'NO',
  denmark: 'DK',
  finland: 'FI',
  switzerland: 'CH',
  austria: 'AT',
  poland: 'PL',
  india: 'IN',
  singapore: 'SG',
  'south africa': 'ZA',
};

/** US states, so "CA 94607" reads as a region and a ZIP code. */
export const US_STATES = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(' '),
);

export const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11,
  dec: 12, december: 12,
};

/** A name ends in a company suffix: the mark of a legal (registered) business name. */
export const COMPANY_SUFFIX = /\b(?:ltd|limited|llc|llp|plc|inc|incorporated|corp|corporation|co|gmbh|pty|cic|lp)\.?$/i;
