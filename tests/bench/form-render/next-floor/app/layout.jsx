// The framework's floor of the form render benchmark: the smallest App Router page with one client component.
export const metadata = { title: 'Next floor: one input' };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
