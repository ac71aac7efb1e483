/**
 * A function of an object worked out once per object and kept while the object lives (a WeakMap): for
 * what is derived from a contract, a model or a list of items that never changes once made.
 */
export function oncePerObject<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, V>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      cache.set(key, value);
    }
    return value;
  };
}
