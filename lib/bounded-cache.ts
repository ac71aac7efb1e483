/**
 * A Map that keeps at most `max` entries, dropping the least recently stored: the BFF keeps Portal URLs it
 * learnt from reads (they never change) without letting a long-running process grow without bound.
 */
export class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V) {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }

  delete(key: K) {
    this.map.delete(key);
  }

  get size() {
    return this.map.size;
  }
}
