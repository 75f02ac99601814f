'use strict';
// What the kit's tests compare an outcome by, as the runner compares it (no tests of its own).

/** A call's or an event's outcome with each text the reference marks `prefix_only` cut to that
 * prefix (AR-CONV-3: the rest is implementation-defined), as the runner compares them.
 */
function comparable(outcome, marks) {
  // Written as `serve` writes it: a lone surrogate travels as U+FFFD.
  const out = JSON.parse(JSON.stringify(outcome, (_k, v) => (typeof v === 'string' ? v.toWellFormed() : v)));
  for (const [pointer, n] of Object.entries(marks ?? {})) {
    const keys = pointer.split('/').slice(1);
    const last = keys.pop();
    const parent = keys.reduce((o, k) => (o == null ? o : o[k]), out);
    if (parent != null && typeof parent[last] === 'string') parent[last] = [...parent[last]].slice(0, n).join('');
  }
  delete out.prefix_only;
  return out;
}

/** `outcome` (a call's, or a session's item by item) made comparable by the marks of the
 * reference's outcome `want`. */
const each = (outcome, want) =>
  Array.isArray(outcome.calls)
    ? { ...outcome, calls: outcome.calls.map((o, i) => comparable(o, want.calls?.[i]?.prefix_only)) }
    : comparable(outcome, want.prefix_only);

module.exports = { comparable, each };
