"""The position: a flat int array with a border of sentinels, chains as circular lists.

Each chain keeps, at its head, its pseudo-liberty count (adjacent empty points counted once per
adjacent stone) with the sum and the sum of squares of those liberty indices. A chain has no
liberties exactly when the count is 0, and exactly one distinct liberty when
``count * sumsq == sum * sum``; then that liberty is ``sum // count``. Nothing is re-flooded.

One module over 400 lines: the hot path (play, analyse, place, merge, remove) updates the same arrays in
place and is kept in one class for speed (bench/rules_bench.py).
"""

from __future__ import annotations

import random

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
COLOR_CODE = {"B": BLACK, "W": WHITE}
CODE_COLOR = {BLACK: "B", WHITE: "W"}
NO_POINT = -1

_ZOBRIST: dict[int, tuple[list[int], list[list[int]], int]] = {}
_TEMPLATES: dict[int, tuple[list[int], list[int], list[tuple[int, ...]], list[int], list[int]]] = {}


class BoardError(Exception):
    """A move that the position forbids; ``reason`` is a snake_case word."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def zobrist_tables(size: int) -> tuple[list[int], list[list[int]], int]:
    """Fixed pseudo-random keys per point and colour (the same in every run), and the side-to-move key."""
    tables = _ZOBRIST.get(size)
    if tables is None:
        stride = size + 2
        rng = random.Random(0x7E46E4 + size)
        n = stride * (size + 2)
        keys = [[0] * n, [rng.getrandbits(64) for _ in range(n)], [rng.getrandbits(64) for _ in range(n)]]
        tables = (keys[BLACK], keys, rng.getrandbits(64))
        _ZOBRIST[size] = tables
    return tables


class Board:
    __slots__ = (
        "size",
        "stride",
        "color",
        "head",
        "nxt",
        "libs",
        "lsum",
        "lsq",
        "count",
        "hash",
        "ko",
        "keys",
        "side_key",
        "points",
        "nbrs",
        "seen",
        "key_xor",
        "situation_xor",
        "multi",
        "arrays",
    )

    def __init__(self, size: int):
        self.size = size
        w = self.stride = size + 2
        template = _TEMPLATES.get(size)
        if template is None:
            n = w * (size + 2)
            color = [BORDER] * n
            points = [(y + 1) * w + x + 1 for y in range(size) for x in range(size)]
            for p in points:
                color[p] = EMPTY
            nbrs: list[tuple[int, ...]] = [(p + 1, p - 1, p + w, p - w) for p in range(n - w)]
            nbrs += [()] * w
            template = _TEMPLATES[size] = (color, points, nbrs, list(range(n)), [0] * n)
        color, self.points, self.nbrs, ident, zeros = template
        self.color = color[:]
        self.head = ident[:]
        self.nxt = ident[:]
        self.libs = zeros[:]
        self.lsum = zeros[:]
        self.lsq = zeros[:]
        self.count = zeros[:]
        self.arrays = (self.color, self.head, self.nxt, self.libs, self.lsum, self.lsq, self.count)
        self.hash = 0
        self.ko = NO_POINT
        _, self.keys, self.side_key = zobrist_tables(size)
        # history used by play(): the set of keys already seen (None: no superko), the key
        # adjustment per colour that moved (see history_key), and whether multi-stone suicide is allowed
        self.seen: set[int] | None = None
        # the side to move folded into a key: after Black's move White is to move (a whole-board situation)
        self.situation_xor = (0, self.side_key, 0)
        self.key_xor = (0, 0, 0)  # positional: the stones alone; set to situation_xor for situational superko
        self.multi = False

    # -- conversions ---------------------------------------------------------------------------
    def index(self, x: int, y: int) -> int:
        return (y + 1) * self.stride + x + 1

    def xy(self, p: int) -> tuple[int, int]:
        y, x = divmod(p, self.stride)
        return (x - 1, y - 1)

    def copy(self) -> "Board":
        b = Board.__new__(Board)
        for name in Board.__slots__:
            value = getattr(self, name)
            setattr(b, name, value[:] if isinstance(value, list) and name not in ("keys", "points", "nbrs") else value)
        b.seen = set(self.seen) if self.seen is not None else None
        b.arrays = (b.color, b.head, b.nxt, b.libs, b.lsum, b.lsq, b.count)
        return b

    def history_key(self, board_hash: int, mover: int) -> int:
        """The key a position with hash ``board_hash``, reached by a move or pass of ``mover``, has in the
        repetition history (the one superko key; :meth:`play` inlines it on its hot path)."""
        return board_hash ^ self.key_xor[mover]

    def chain(self, p: int) -> list[int]:
        out = [p]
        nxt = self.nxt
        q = nxt[p]
        while q != p:
            out.append(q)
            q = nxt[q]
        return out

    def liberties(self, p: int) -> set[int]:
        color = self.color
        w = self.stride
        libs = set()
        for s in self.chain(p):
            for q in (s + 1, s - 1, s + w, s - w):
                if color[q] == EMPTY:
                    libs.add(q)
        return libs

    # -- moves ---------------------------------------------------------------------------------
    def analyse(self, p: int, c: int, multi_stone_suicide: bool) -> tuple[list[int], bool, int]:
        """Check a move without changing anything: (heads of captured chains, is_suicide, hash after).

        Raises BoardError("occupied" | "suicide" | "ko"). Superko is the caller's business (it owns
        the history); the returned hash is what the board's hash would be after the move.
        """
        color = self.color
        if color[p] != EMPTY:
            raise BoardError("occupied")
        head = self.head
        libs = self.libs
        lsum = self.lsum
        lsq = self.lsq
        o = 3 - c
        w = self.stride
        captures: list[int] = []
        empty = False
        safe = False
        own = False
        for q in (p + 1, p - 1, p + w, p - w):
            cq = color[q]
            if cq == EMPTY:
                empty = True
            elif cq == c:
                own = True
                if not safe:
                    h = head[q]
                    n = libs[h]
                    if n * lsq[h] != lsum[h] * lsum[h]:
                        safe = True
            elif cq == o:
                h = head[q]
                n = libs[h]
                s = lsum[h]
                if n * lsq[h] == s * s and h not in captures:
                    captures.append(h)
        keys = self.keys
        if captures:
            if p == self.ko:
                raise BoardError("ko")
            return captures, False, self.hash ^ keys[c][p] ^ self._chains_key(captures, keys[o])
        if empty or safe:
            return captures, False, self.hash ^ keys[c][p]
        if not own or not multi_stone_suicide:
            raise BoardError("suicide")
        # multi-stone suicide: the own neighbour chains disappear, the played stone with them
        seen: list[int] = []
        for q in (p + 1, p - 1, p + w, p - w):
            if color[q] == c and head[q] not in seen:
                seen.append(head[q])
        return seen, True, self.hash ^ self._chains_key(seen, keys[c])

    def _chains_key(self, heads: list[int], keys: list[int]) -> int:
        """The XOR of ``keys`` over every stone of the chains headed by ``heads`` (what removing them does to
        the hash when ``keys`` are their colour's)."""
        nxt = self.nxt
        k = 0
        for h in heads:
            k ^= keys[h]
            q = nxt[h]
            while q != h:
                k ^= keys[q]
                q = nxt[q]
        return k

    def play(self, p: int, c: int) -> list[int]:
        """Check and play in one go (the hot path of a game): returns the removed stones.

        With ``self.seen`` set, a move whose resulting ``hash ^ key_xor[c]`` is in it is refused as
        superko, and that key is added after the move. Raises BoardError; changes nothing then.

        One pass over the neighbours both checks and updates their chains' liberties. Whatever needs
        more (a capture, no liberty left, a key already seen) is put back and goes through
        :meth:`play_checked`.
        """
        color, head, nxt, libs, lsum, lsq, count = self.arrays
        if color[p]:
            raise BoardError("occupied")
        new_hash = self.hash ^ self.keys[c][p]
        seen = self.seen
        key = 0
        if seen is not None:
            key = new_hash ^ self.key_xor[c]  # history_key, inlined
            if key in seen:  # a repetition unless the move captures
                return self.play_checked(p, c)
        nbrs = self.nbrs[p]
        pp = p * p
        n = s = sq = 0
        own = 0  # the head of an own neighbour chain (heads are never 0)
        more = False  # whether there is a second own chain
        for q in nbrs:
            cq = color[q]
            if not cq:
                n += 1
                s += q
                sq += q * q
            elif cq != 3:
                h = head[q]
                if cq == c:
                    if not own:
                        own = h
                    elif h != own:
                        more = True
                else:
                    m = libs[h]
                    if m < 5:  # more than 4 pseudo-liberties cannot all be one point
                        t = lsum[h]
                        if m * lsq[h] == t * t:  # its one liberty is p: a capture
                            self._give_back(p, q)
                            return self.play_checked(p, c)
                libs[h] -= 1
                lsum[h] -= p
                lsq[h] -= pp
        if not n:
            # no empty neighbour: legal here only when an own chain keeps a liberty besides p
            for q in nbrs:
                if color[q] == c and libs[head[q]]:
                    break
            else:
                self._give_back(p, -1)
                return self.play_checked(p, c)
        if seen is not None:
            seen.add(key)
        self.hash = new_hash
        self.ko = -1
        color[p] = c
        if not own:
            head[p] = p
            nxt[p] = p
            count[p] = 1
            libs[p] = n
            lsum[p] = s
            lsq[p] = sq
            return []
        if not more:  # join the one own chain
            head[p] = own
            nxt[p] = nxt[own]
            nxt[own] = p
            count[own] += 1
            libs[own] += n
            lsum[own] += s
            lsq[own] += sq
            return []
        head[p] = p
        nxt[p] = p
        count[p] = 1
        libs[p] = lsum[p] = lsq[p] = 0
        hp = p
        for q in nbrs:
            if color[q] == c:
                h = head[q]
                if h != hp:
                    hp = self._merge(hp, h)
        libs[hp] += n
        lsum[hp] += s
        lsq[hp] += sq
        return []

    def _merge(self, a: int, b: int) -> int:
        """Join the chains headed by ``a`` and ``b`` (the smaller into the larger); return the new head."""
        head, nxt, count = self.head, self.nxt, self.count
        if count[b] < count[a]:
            big, small = a, b
        else:
            big, small = b, a
        r = small
        while True:
            head[r] = big
            r = nxt[r]
            if r == small:
                break
        nxt[big], nxt[small] = nxt[small], nxt[big]
        self.libs[big] += self.libs[small]
        self.lsum[big] += self.lsum[small]
        self.lsq[big] += self.lsq[small]
        count[big] += count[small]
        return big

    def _give_back(self, p: int, stop: int) -> None:
        """Undo the liberty updates :meth:`play` made for the neighbours of ``p`` before ``stop``."""
        color, head, _, libs, lsum, lsq, _ = self.arrays
        pp = p * p
        for q in self.nbrs[p]:
            if q == stop:
                return
            cq = color[q]
            if cq and cq != 3:
                h = head[q]
                libs[h] += 1
                lsum[h] += p
                lsq[h] += pp

    def play_checked(self, p: int, c: int) -> list[int]:
        """:meth:`analyse`, the superko check, then :meth:`place` (captures, suicides, repetitions)."""
        captures, suicide, new_hash = self.analyse(p, c, self.multi)
        seen = self.seen
        if seen is not None:
            key = self.history_key(new_hash, c)
            if key in seen:
                raise BoardError("superko")
            seen.add(key)
        return self.place(p, c, captures, suicide)

    def place(self, p: int, c: int, captures: list[int], suicide: bool) -> list[int]:
        """Apply a move already checked by :meth:`analyse`; returns the removed stones."""
        color, head, nxt, libs, lsum, lsq, count = self.arrays
        w = self.stride
        pp = p * p
        color[p] = c
        self.hash ^= self.keys[c][p]
        head[p] = p
        nxt[p] = p
        count[p] = 1
        n = s = sq = 0
        for q in (p + 1, p - 1, p + w, p - w):
            cq = color[q]
            if cq == EMPTY:
                n += 1
                s += q
                sq += q * q
            elif cq != BORDER:
                h = head[q]
                libs[h] -= 1
                lsum[h] -= p
                lsq[h] -= pp
        libs[p] = n
        lsum[p] = s
        lsq[p] = sq
        hp = p
        for q in (p + 1, p - 1, p + w, p - w):
            if color[q] == c:
                h = head[q]
                if h != hp:
                    hp = self._merge(hp, h)
        if suicide:
            self.ko = NO_POINT
            return self._remove(hp, c)
        if not captures:
            self.ko = NO_POINT
            return []
        removed = []
        for h in captures:
            removed.extend(self._remove(h, 3 - c))
        if len(removed) == 1 and count[hp] == 1 and libs[hp] == 1:
            self.ko = removed[0]
        else:
            self.ko = NO_POINT
        return removed

    def _remove(self, h: int, oc: int) -> list[int]:
        """Take the chain at head ``h`` (colour ``oc``) off the board, giving its points back as liberties."""
        color, head, nxt, libs, lsum, lsq, _ = self.arrays
        keys = self.keys[oc]
        w = self.stride
        stones = [h]
        r = nxt[h]
        while r != h:
            stones.append(r)
            r = nxt[r]
        hsh = self.hash
        for s in stones:
            color[s] = EMPTY
            hsh ^= keys[s]
        self.hash = hsh
        for s in stones:
            ss = s * s
            for q in (s + 1, s - 1, s + w, s - w):
                cq = color[q]
                if cq != EMPTY and cq != BORDER:
                    hq = head[q]
                    libs[hq] += 1
                    lsum[hq] += s
                    lsq[hq] += ss
            head[s] = s
            nxt[s] = s
        return stones

    def setup(self, p: int, c: int) -> None:
        """Put a stone down with no capture or ko effect (handicap and setup stones)."""
        if self.color[p] != EMPTY:
            raise BoardError("occupied")
        captures, suicide, _ = self.analyse(p, c, True)
        self.place(p, c, captures, suicide)
        self.ko = NO_POINT

    def rows(self) -> list[str]:
        chars = ".XO#"
        color = self.color
        w = self.stride
        return ["".join(chars[color[(y + 1) * w + x + 1]] for x in range(self.size)) for y in range(self.size)]
