export default function HomePage() {
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">Client intake</h1>
      <p>Bring businesses into the Portal, complete their intake applications and review Autofill suggestions.</p>
    </section>
  );
}
