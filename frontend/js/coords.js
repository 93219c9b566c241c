// Board coordinates: points are [x, y] with x from the left and y from the top, both 0-based.
// GTP labels use letters without I and numbers counted from the bottom.
export const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

export function columnLabel(x) {
  return LETTERS[x];
}

export function rowLabel(y, size) {
  return String(size - y);
}

export function gtp(p, size) {
  if (!p) return null;
  return columnLabel(p[0]) + rowLabel(p[1], size);
}

/** Star points (hoshi) for the usual board sizes. */
export function starPoints(size) {
  if (size < 7) return [];
  const edge = size >= 13 ? 3 : 2;
  const far = size - 1 - edge;
  const points = [
    [edge, edge],
    [far, edge],
    [edge, far],
    [far, far],
  ];
  if (size % 2 === 1) {
    const mid = (size - 1) / 2;
    points.push([mid, mid]);
    if (size >= 15) points.push([mid, edge], [mid, far], [edge, mid], [far, mid]);
  }
  return points;
}

/** Standard fixed handicap placements (used only to rebuild history when the snapshot has no setup). */
export function handicapPoints(size, stones) {
  if (stones < 2) return [];
  const s = starPoints(size);
  if (s.length < 4) return [];
  const [tl, tr, bl, br] = [s[0], s[1], s[2], s[3]];
  const mid = (size - 1) / 2;
  const edge = tl[0];
  const far = tr[0];
  const order = [bl, tr, br, tl];
  const out = order.slice(0, Math.min(stones, 4));
  if (size % 2 === 0) return out;
  if (stones === 5 || stones === 7 || stones === 9) {
    if (stones >= 6) out.push([edge, mid], [far, mid]);
    if (stones >= 8) out.push([mid, edge], [mid, far]);
    out.push([mid, mid]);
  } else {
    if (stones >= 6) out.push([edge, mid], [far, mid]);
    if (stones >= 8) out.push([mid, edge], [mid, far]);
  }
  return out.slice(0, stones);
}
