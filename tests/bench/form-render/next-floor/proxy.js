// Next finds proxy and instrumentation files by looking up from the app's directory, so without these the
// repository's own (the product's security headers, its read-model scheduler) would be built into this app.
// This proxy runs for no path.
export const config = { matcher: '/_next-floor-no-proxy' };

export function proxy() {}
