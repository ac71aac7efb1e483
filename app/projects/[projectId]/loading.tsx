export default function Loading() {
  return (
    <p role="status" className="loading">
      Loading the funding project…
    </p>
  );
}
