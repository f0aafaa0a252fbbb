// @ts-check
/**
 * Verify the dice: a match publishes `sha256("<seed>:<salt>")` when it starts (server/seeds.py)
 * and reveals the seed and salt with the record once it is over. Recomputing the hash here,
 * in the browser, shows the seed was fixed before the first die was rolled; the record's
 * config must carry that same seed, and the server's replay of the record checks every
 * state hash. WebCrypto where the page is a secure context, else a small SHA-256 below.
 */

/**
 * Hex SHA-256 of an ASCII string.
 * @param {string} text
 * @returns {Promise<string>}
 */
export async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  if (globalThis.crypto?.subtle) {
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  return sha256Fallback(bytes);
}

/**
 * Check a revealed seed and salt against the published commitment and the record's seed.
 * @param {{seed: number|null, salt: string|null, seed_commitment: string, record: {config: {seed?: number|null}}}} revealed
 * @returns {Promise<{ok: boolean, reason: string, computed: string}>}
 */
export async function verifyCommitment(revealed) {
  const { seed, salt, seed_commitment: published } = revealed;
  if (seed === null || seed === undefined || !salt) {
    return { ok: false, reason: "the seed is not revealed yet (the match is not over)", computed: "" };
  }
  const computed = await sha256Hex(`${seed}:${salt}`);
  if (computed !== published) return { ok: false, reason: "the revealed seed does not open the published commitment", computed };
  if (revealed.record.config.seed !== seed) return { ok: false, reason: "the record was played with a different seed", computed };
  return { ok: true, reason: `seed ${seed} with its salt gives the fingerprint published at the start`, computed };
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** FIPS 180-4 SHA-256 for pages without WebCrypto (plain http on another host). @param {Uint8Array} msg */
export function sha256Fallback(msg) {
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const length = Math.ceil((msg.length + 9) / 64) * 64;
  const data = new Uint8Array(length);
  data.set(msg);
  data[msg.length] = 0x80;
  new DataView(data.buffer).setUint32(length - 4, msg.length * 8);
  const w = new Uint32Array(64);
  const rot = (/** @type {number} */ x, /** @type {number} */ n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < length; off += 64) {
    const view = new DataView(data.buffer, off, 64);
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rot(w[i - 15], 7) ^ rot(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rot(w[i - 2], 17) ^ rot(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
  }
  return [...h].map((x) => x.toString(16).padStart(8, "0")).join("");
}
