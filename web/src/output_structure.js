// A graph's flat outputs put back into the nesting its code returns, as torch's GraphModule does with the
// stored pytree spec (pytree.tree_unflatten(..., self._out_spec)): tuples and lists as arrays, dicts —
// Hugging Face's ModelOutput, namedtuples — as objects keyed by their fields, leaves in order.

/** `structure`: the model's info().output_structure (null for a single leaf; undefined when none is stored). */
export function unflattenOutputs(flat, structure) {
  if (structure === undefined || !Array.isArray(flat)) return flat;
  const leaves = (s) => (s === null ? 1 : Object.values(s).reduce((n, x) => n + leaves(x), 0));
  if (leaves(structure) !== flat.length) return flat;  // the graph was edited to return something else
  let next = 0;
  const build = (s) => {
    if (s === null) return flat[next++];
    if (Array.isArray(s)) return s.map(build);
    return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, build(v)]));
  };
  return build(structure);
}
