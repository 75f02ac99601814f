// Writes spec/fixtures/js-numbers.jsonl: for each of a fixed, seeded list of doubles, what Node
// prints for String(x) and JSON.stringify(x). The reference engine's number text (src/jsstring.rs)
// is checked against every line. Each double is stored as its 64-bit pattern in hex so the test
// reads exactly the same double. Deterministic: the same file on every run.
//
// Usage: node tools/js-numbers.mjs [output path]   (plain Node >= 20, no dependencies)

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const out = process.argv[2] ?? fileURLToPath(new URL('../spec/fixtures/js-numbers.jsonl', import.meta.url));

const view = new DataView(new ArrayBuffer(8));
const bitsOf = (x) => {
  view.setFloat64(0, x);
  return view.getBigUint64(0);
};
const fromBits = (b) => {
  view.setBigUint64(0, BigInt.asUintN(64, b));
  return view.getFloat64(0);
};
const hex = (b) => b.toString(16).padStart(16, '0');

const seen = new Set();
const entries = [];
const add = (x) => {
  const b = bitsOf(x);
  // NaN has many bit patterns; DataView writes the canonical one, so every NaN is one entry.
  if (seen.has(b)) return;
  seen.add(b);
  entries.push(b);
};
const addBits = (b) => {
  const x = fromBits(b);
  if (Number.isNaN(x)) {
    // A NaN payload does not survive a round trip through a JS number; record the pattern itself.
    const key = BigInt.asUintN(64, b);
    if (seen.has(key)) return;
    seen.add(key);
    entries.push(key);
    return;
  }
  add(x);
};
// |x| and its neighbours up to `reach` units in the last place away, with both signs if `signed`.
const around = (x, reach = 1n, signed = false) => {
  const b = bitsOf(Math.abs(x));
  for (let d = -reach; d <= reach; d++) {
    const n = b + d;
    if (n < 0n || n > 0x7ff0000000000000n) continue;
    addBits(n);
    if (signed) addBits(n | 0x8000000000000000n);
  }
};

// Named values: zeros, extremes, the safe-integer edge, the notation switches, non-finite values.
for (const x of [
  0, -0, 5e-324, -5e-324, Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE,
  2.2250738585072014e-308, 2.225073858507201e-308, Number.EPSILON,
  2 ** 53 - 1, 2 ** 53, 2 ** 53 + 1, 2 ** 53 + 2, -(2 ** 53), 2 ** 63, 2 ** 64, 2 ** 31, 2 ** 32,
  1e21, 1e-7, 1e-6, 1e20, 9.999999999999999e20, 1.5e21, 1.5e-7, 1.25e-7, 9.99999e-7, 0.000001234,
  123456789012345680000, 12345678901234567890, 0.1, 0.2, 0.3, 0.1 + 0.2, 1 / 3, 2 / 3, Math.PI, Math.E,
  197176774147147.62, 100, 1, -1, 1.5, -1.5, 0.5, 4.35, 0.035, 5e-7, 1e100, 1.7976931348623157e308,
  NaN, Infinity, -Infinity,
]) {
  add(x);
  around(x, 2n, true);
}

// Powers of ten over the whole range, with their neighbours; and digits right at the switches.
for (let k = -325; k <= 309; k++) around(Number(`1e${k}`));
for (let k = -9; k <= 23; k++) {
  for (const m of ['1', '9', '1.5', '9.5', '1.2345', '9.87654321', '1.0000000000000002', '9.999999999999998']) {
    around(Number(`${m}e${k}`));
  }
}
// Small integers and simple decimals.
for (let i = -100; i <= 1000; i++) add(i);
for (let i = 1; i <= 1000; i++) add(i / 100);
for (let i = 1; i <= 300; i++) add(i / 7);

// A seeded PRNG (splitmix64), so the file is the same on every run.
let state = 0x5eed_0f_ec_4a_262n;
const next = () => {
  state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
  let z = state;
  z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
  z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
  return z ^ (z >> 31n);
};
// Random bit patterns: every exponent equally likely, so subnormals and huge values appear.
for (let i = 0; i < 4000; i++) addBits(next());
// Random doubles between 2^-100 and 2^100, the sizes messages carry.
for (let i = 0; i < 2000; i++) {
  const r = next();
  const exponent = 1023n - 100n + ((r >> 52n) % 200n);
  addBits((r & 0x800fffffffffffffn) | (exponent << 52n));
}
// Random decimals of 15 to 17 significant digits, the lengths where shortest digits are hardest.
for (let i = 0; i < 1000; i++) {
  const r = next();
  const digits = 15 + Number(r % 3n);
  const mantissa = (next() % 10n ** BigInt(digits)).toString().padStart(digits, '1');
  const exponent = Number((r >> 8n) % 60n) - 30;
  add(Number(`${mantissa[0]}.${mantissa.slice(1)}e${exponent}`));
}

const lines = [JSON.stringify({ generated_by: 'node tools/js-numbers.mjs', entries: entries.length })];
for (const b of entries) {
  const x = fromBits(b);
  lines.push(JSON.stringify({ bits: hex(b), string: String(x), json: JSON.stringify(x) }));
}
writeFileSync(out, `${lines.join('\n')}\n`);
