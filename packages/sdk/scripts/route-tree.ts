/** A tree of route keys (`messages` → `send`), with a value at each leaf. */
export type RouteTree<Leaf> = { [key: string]: RouteTree<Leaf> | Leaf };

/** Sets `value` at `path` in `tree`, creating the branches on the way. */
export function insertAt<Leaf>(tree: RouteTree<Leaf>, path: readonly string[], value: Leaf): void {
  let node = tree;
  for (const key of path.slice(0, -1)) {
    const next = (node[key] ?? {}) as RouteTree<Leaf>;
    node[key] = next;
    node = next;
  }
  node[path.at(-1) as string] = value;
}
