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
