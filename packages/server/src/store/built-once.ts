/**
 * A cache of things built once per owner and shape, such as the prepared statements of a
 * connection: `built(owner, shape)` calls `build(owner, shape)` the first time for the owner's
 * key (`keyOf(owner)`) and shape, and hands back the same value after. Keys are held weakly, so a
 * closed connection's statements go with it; shapes must be few (a key made of which fields or
 * filters are present), never values.
 * @example const page = builtOncePer((db) => db, (db, shape: 'all' | 'to') => build(db, shape));
 */
export function builtOncePer<O, K extends object, S, V>(
  keyOf: (owner: O) => K,
  build: (owner: O, shape: S) => V,
): (owner: O, shape: S) => V {
  const built = new WeakMap<K, Map<S, V>>();
  return (owner, shape) => {
    const key = keyOf(owner);
    let byShape = built.get(key);
    if (!byShape) {
      byShape = new Map();
      built.set(key, byShape);
    }
    let value = byShape.get(shape);
    if (value === undefined) {
      value = build(owner, shape);
      byShape.set(shape, value);
    }
    return value;
  };
}
