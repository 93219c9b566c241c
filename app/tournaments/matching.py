"""Maximum-weight matching in a general graph (Edmonds' blossom method with the primal-dual weights of Galil's
survey, "Efficient algorithms for finding maximum matching in graphs", 1986): among the matchings of maximum
cardinality, one of maximum total weight. Integer weights only; every dual value stays an integer.

Over 400 lines because it is one algorithm whose parts (labelling, blossoms, their expansion and rotation, dual
steps) share one state and mean nothing apart.

Why our own: networkx's ``max_weight_matching`` took 2.6-9.4 s for a 500-player round. Three things make this
one fast enough for pairing:
- a *warm start*: before the first stage every vertex lowers its dual to what its best edge allows, and takes that
  edge when the other end is still single. In a pairing graph most players' best partner wants them back, so few
  vertices are left for the (costly) stages;
- a *sparse first pass*: ``max_weight_matching_dense`` solves on a few candidate edges per vertex, then checks
  the duals against every pair of the whole field and solves again with any pair that breaks them, so the answer
  is the optimum over the complete graph though most pairs are never entered;
- flat lists indexed by number, no objects per vertex.

The warm start leaves unmatched vertices with different duals, which is correct for a perfect matching (the
duals of the perfect-matching problem are free) but not proven for a matching that cannot be perfect; when the
answer is not perfect, it is computed again from the textbook start (every dual equal)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

Edge = tuple[int, int, int]


class _Solver:
    """One run. Vertices 0..n-1; blossoms n..2n-1 (a vertex is its own trivial blossom). ``dual[v]`` holds twice
    the vertex's dual, ``dual[b]`` a blossom's dual, so that the doubled slack of an edge between two top-level
    blossoms is ``dual[i] + dual[j] - 2 w`` and every step stays whole."""

    def __init__(self, n: int, edges: Sequence[Edge], warm: bool) -> None:
        self.n = n
        self.ei = [e[0] for e in edges]
        self.ej = [e[1] for e in edges]
        self.ew = [e[2] for e in edges]
        self.nbr: list[list[int]] = [[] for _ in range(n)]
        for k, (i, j, _) in enumerate(edges):
            self.nbr[i].append(k)
            self.nbr[j].append(k)
        self.mate = [-1] * n  # the matched edge of each vertex
        top = 2 * n
        self.top = list(range(n))  # the top-level blossom holding each vertex
        self.parent = [-1] * top
        self.children: list[list[int]] = [[] for _ in range(top)]
        # links[b][i] = (edge, x, y): x in children[i], y in children[i + 1] (cyclically)
        self.links: list[list[tuple[int, int, int]]] = [[] for _ in range(top)]
        self.base = list(range(n)) + [-1] * n
        self.free_ids = list(range(top - 1, n - 1, -1))
        self.label = [0] * top  # 0 free, 1 S (outer), 2 T (inner): top-level blossoms
        self.label_edge = [-1] * top  # the edge a top-level blossom was labelled through (-1: a root)
        self.label_in = [-1] * top  # its end inside the blossom
        self.label_out = [-1] * top  # its end outside
        self.reach = [-1] * n  # vertex inside a T-blossom reached by a tight edge from an S-vertex: that edge
        self.best = [-1] * n  # least-slack edge from an S-vertex to this vertex (free or inside a T-blossom)
        self.best_s = [-1] * top  # least-slack edge from this top-level S-blossom to another S-blossom
        self.tight = [False] * len(edges)
        self.queue: list[int] = []
        self.dual = [0] * top
        self.stamp = [0] * top
        self.clock = 0
        wmax = [0] * n
        seen = [False] * n
        for k, w in enumerate(self.ew):
            for v in (self.ei[k], self.ej[k]):
                if not seen[v] or w > wmax[v]:
                    wmax[v], seen[v] = w, True
        if warm:
            # doubled duals: every vertex at its heaviest edge's weight (feasible: 2w <= dual_i + dual_j), all even
            for v in range(n):
                self.dual[v] = 2 * wmax[v]
            self.warm_start()
        else:
            everyone = 2 * max(wmax, default=0)
            for v in range(n):
                self.dual[v] = everyone

    def slack(self, k: int) -> int:
        return self.dual[self.ei[k]] + self.dual[self.ej[k]] - 4 * self.ew[k]

    # The doubled slack above uses 4w because the duals hold 2 * (2u): weights enter doubled so that the
    # warm start's duals are all even, which keeps the S-S step (half a slack) whole.

    def warm_start(self) -> None:
        ei, ej, ew, dual, mate = self.ei, self.ej, self.ew, self.dual, self.mate
        for v in range(self.n):
            if mate[v] != -1 or not self.nbr[v]:
                continue
            need, pick = None, -1
            for k in self.nbr[v]:
                o = ei[k] ^ ej[k] ^ v
                d = 4 * ew[k] - dual[o]
                if need is None or d > need or (d == need and mate[o] == -1 and mate[ei[pick] ^ ej[pick] ^ v] != -1):
                    need, pick = d, k
            if need is None:
                continue
            dual[v] = need
            o = ei[pick] ^ ej[pick] ^ v
            if mate[o] == -1:
                mate[v] = mate[o] = pick

    def leaves(self, b: int) -> list[int]:
        if b < self.n:
            return [b]
        out: list[int] = []
        stack = [b]
        while stack:
            c = stack.pop()
            if c < self.n:
                out.append(c)
            else:
                stack.extend(self.children[c])
        return out

    def other(self, k: int, v: int) -> int:
        return self.ei[k] ^ self.ej[k] ^ v

    # ---- labelling -------------------------------------------------------------------------------------------

    def label_s(self, b: int, edge: int, inside: int, outside: int) -> None:
        self.label[b] = 1
        self.label_edge[b], self.label_in[b], self.label_out[b] = edge, inside, outside
        self.best_s[b] = -1
        self.queue.extend(self.leaves(b))

    def label_t(self, b: int, edge: int, inside: int, outside: int) -> None:
        """Label ``b`` T through ``edge`` (``inside`` in b, ``outside`` an S-vertex), then its base's partner S."""
        self.label[b] = 2
        self.label_edge[b], self.label_in[b], self.label_out[b] = edge, inside, outside
        self.reach[inside] = edge
        base = self.base[b]
        k = self.mate[base]
        partner = self.other(k, base)
        self.label_s(self.top[partner], k, partner, base)

    def s_parent(self, b: int) -> int:
        """The S-blossom above S-blossom ``b`` in its tree (-1 at a root)."""
        if self.label_edge[b] == -1:
            return -1
        t = self.top[self.label_out[b]]
        return self.top[self.label_out[t]]

    def common_base(self, v: int, w: int) -> int:
        """The base vertex of the blossom that edge v-w closes, or -1 when v and w are in different trees."""
        self.clock += 1
        mark = self.clock
        a, b = self.top[v], self.top[w]
        while a != -1 or b != -1:
            if a != -1:
                if self.stamp[a] == mark:
                    return self.base[a]
                self.stamp[a] = mark
                a = self.s_parent(a)
            a, b = b, a
        return -1

    # ---- blossoms --------------------------------------------------------------------------------------------

    def towards(self, bb: int, start: int) -> list[tuple[int, int, int, int]]:
        """From top-level blossom ``start`` up to (not including) ``bb``: (blossom, edge, end in it, end above)."""
        out = []
        c = start
        while c != bb:
            out.append((c, self.label_edge[c], self.label_in[c], self.label_out[c]))
            c = self.top[self.label_out[c]]
        return out

    def add_blossom(self, base_vertex: int, k: int) -> None:
        v, w = self.ei[k], self.ej[k]
        bb = self.top[base_vertex]
        up_v = self.towards(bb, self.top[v])
        up_w = self.towards(bb, self.top[w])
        b = self.free_ids.pop()
        children = [bb]
        links: list[tuple[int, int, int]] = []
        for c, edge, inside, outside in reversed(up_v):
            links.append((edge, outside, inside))
            children.append(c)
        links.append((k, v, w))
        for c, edge, inside, outside in up_w:
            children.append(c)
            links.append((edge, inside, outside))
        self.children[b], self.links[b] = children, links
        self.base[b] = base_vertex
        self.parent[b] = -1
        for c in children:
            self.parent[c] = b
        self.label[b] = 1
        self.label_edge[b], self.label_in[b], self.label_out[b] = (
            self.label_edge[bb],
            self.label_in[bb],
            self.label_out[bb],
        )
        self.dual[b] = 0
        members = self.leaves(b)
        for x in members:
            if self.label[self.top[x]] == 2:
                self.queue.append(x)  # a T-vertex turned S: scan it
            self.top[x] = b
        best, best_slack = -1, 0
        for x in members:
            for e in self.nbr[x]:
                o = self.top[self.ei[e] ^ self.ej[e] ^ x]
                if o != b and self.label[o] == 1:
                    s = self.slack(e)
                    if best == -1 or s < best_slack:
                        best, best_slack = e, s
        self.best_s[b] = best

    def release(self, b: int) -> None:
        self.children[b], self.links[b] = [], []
        self.base[b] = -1
        self.label[b] = 0
        self.label_edge[b] = -1
        self.best_s[b] = -1
        self.free_ids.append(b)

    def expand(self, b: int, end_stage: bool) -> None:
        children = self.children[b]
        for c in children:
            self.parent[c] = -1
            if c < self.n:
                self.top[c] = c
            elif end_stage and self.dual[c] == 0:
                self.expand(c, True)
            else:
                for x in self.leaves(c):
                    self.top[x] = c
        if not end_stage and self.label[b] == 2:
            self.relabel_expanded_t(b)
        self.release(b)

    def relabel_expanded_t(self, b: int) -> None:
        """A T-blossom opened mid-stage: the even path from where it was entered to its base keeps the tree;
        the children off that path stay free unless an S-vertex reached one of them."""
        children, links = self.children[b], self.links[b]
        m = len(children)
        entry_vertex = self.label_in[b]
        entry = self.top[entry_vertex]
        j = children.index(entry)
        for c in children:
            self.label[c] = 0
        # T through the old label edge, then alternately S (matched link) and T (tight link) down to the base
        self.label[entry] = 2
        self.label_edge[entry], self.label_in[entry], self.label_out[entry] = (
            self.label_edge[b],
            entry_vertex,
            self.label_out[b],
        )
        on_path = {entry}
        step = 1 if j % 2 else -1
        pos = j
        while pos % m != 0:
            if step == 1:
                edge, x, y = links[pos % m]  # x in children[pos], y in children[pos + 1]
                here, there = x, y
            else:
                edge, y, x = links[(pos - 1) % m]  # y in children[pos - 1], x in children[pos]
                here, there = x, y
            nxt = (pos + step) % m
            c = children[nxt]
            on_path.add(c)
            if len(on_path) % 2 == 0:  # reached through the matched link: S
                self.label[c] = 1
                self.label_edge[c], self.label_in[c], self.label_out[c] = edge, there, here
                self.best_s[c] = -1
                self.queue.extend(self.leaves(c))
            else:  # reached from an S child through a tight link: T
                self.tight[edge] = True
                self.label[c] = 2
                self.label_edge[c], self.label_in[c], self.label_out[c] = edge, there, here
                self.reach[there] = edge
            pos += step
        for c in children:
            if c in on_path or self.label[c] != 0:
                continue
            for x in self.leaves(c):
                if self.reach[x] != -1:
                    edge = self.reach[x]
                    self.label_t(c, edge, x, self.other(edge, x))
                    break

    def rotate(self, b: int, v: int) -> None:
        """Make vertex ``v`` the base of blossom ``b``, rematching along the even side of its cycle."""
        c = v
        while self.parent[c] != b:
            c = self.parent[c]
        if c >= self.n:
            self.rotate(c, v)
        children, links = self.children[b], self.links[b]
        m = len(children)
        i = children.index(c)
        if i % 2:
            matched = range(i + 1, m, 2)
        else:
            matched = range(i - 2, -1, -2)
        for li in matched:
            edge, x, y = links[li]
            cx, cy = children[li], children[(li + 1) % m]
            if cx >= self.n:
                self.rotate(cx, x)
            if cy >= self.n:
                self.rotate(cy, y)
            self.mate[x] = self.mate[y] = edge
        self.children[b] = children[i:] + children[:i]
        self.links[b] = links[i:] + links[:i]
        self.base[b] = v

    def augment(self, k: int) -> None:
        for s, edge in ((self.ei[k], k), (self.ej[k], k)):
            while True:
                bs = self.top[s]
                if bs >= self.n:
                    self.rotate(bs, s)
                self.mate[s] = edge
                if self.label_edge[bs] == -1:
                    break
                bt = self.top[self.label_out[bs]]
                edge = self.label_edge[bt]
                inside, s = self.label_in[bt], self.label_out[bt]
                if bt >= self.n:
                    self.rotate(bt, inside)
                self.mate[inside] = edge

    # ---- stages ----------------------------------------------------------------------------------------------

    def scan(self) -> bool:
        """Grow the trees from the queue along tight edges; True when an augmenting path was found and used."""
        ei, ej, top, label, tight = self.ei, self.ej, self.top, self.label, self.tight
        while self.queue:
            v = self.queue.pop()
            bv = top[v]
            for k in self.nbr[v]:
                w = ei[k] ^ ej[k] ^ v
                bw = top[w]
                if bv == bw:
                    continue
                if not tight[k]:
                    s = self.slack(k)
                    if s <= 0:
                        tight[k] = True
                    elif label[bw] == 1:
                        if self.best_s[bv] == -1 or s < self.slack(self.best_s[bv]):
                            self.best_s[bv] = k
                        continue
                    elif label[bw] == 0 or self.reach[w] == -1:
                        if self.best[w] == -1 or s < self.slack(self.best[w]):
                            self.best[w] = k
                        continue
                    else:
                        continue
                if label[bw] == 0:
                    self.label_t(bw, k, w, v)
                elif label[bw] == 1:
                    found = self.common_base(v, w)
                    if found == -1:
                        self.augment(k)
                        return True
                    self.add_blossom(found, k)
                    bv = top[v]
                elif self.reach[w] == -1:
                    self.reach[w] = k
        return False

    def dual_step(self) -> bool:
        """Change the duals by the largest step that keeps them feasible; False when no step can help."""
        n, top, label, dual = self.n, self.top, self.label, self.dual
        delta, kind, arg = -1, 0, -1
        for v in range(n):
            if label[top[v]] == 0 and self.best[v] != -1:
                d = self.slack(self.best[v])
                if delta == -1 or d < delta:
                    delta, kind, arg = d, 2, self.best[v]
        for b in range(2 * n):
            if self.parent[b] == -1 and label[b] == 1 and (b < n or self.base[b] != -1) and self.best_s[b] != -1:
                k = self.best_s[b]
                if top[self.ei[k]] != top[self.ej[k]]:
                    d = self.slack(k) // 2
                    if delta == -1 or d < delta:
                        delta, kind, arg = d, 3, k
        for b in range(n, 2 * n):
            if self.base[b] != -1 and self.parent[b] == -1 and label[b] == 2:
                if delta == -1 or dual[b] < delta:
                    delta, kind, arg = dual[b], 4, b
        if kind == 0:
            return False
        for v in range(n):
            lab = label[top[v]]
            if lab == 1:
                dual[v] -= delta
            elif lab == 2:
                dual[v] += delta
        for b in range(n, 2 * n):
            if self.base[b] != -1 and self.parent[b] == -1:
                if label[b] == 1:
                    dual[b] += delta
                elif label[b] == 2:
                    dual[b] -= delta
        if kind == 4:
            self.expand(arg, False)
        else:
            self.tight[arg] = True
            i = self.ei[arg]
            self.queue.append(i if label[top[i]] == 1 else self.ej[arg])
        return True

    def solve(self) -> list[int]:
        n = self.n
        for _ in range(n // 2 + 1):
            for b in range(2 * n):
                self.label[b] = 0
                self.best_s[b] = -1
            for v in range(n):
                self.best[v] = -1
                self.reach[v] = -1
            self.tight = [False] * len(self.ew)
            self.queue = []
            for v in range(n):
                if self.mate[v] == -1 and self.label[self.top[v]] == 0:
                    self.label_s(self.top[v], -1, -1, -1)
            augmented = False
            while True:
                if self.scan():
                    augmented = True
                    break
                if not self.dual_step():
                    break
            for b in range(n, 2 * n):
                if self.base[b] != -1 and self.parent[b] == -1 and self.dual[b] == 0:
                    self.expand(b, True)
            if not augmented:
                break
        return [-1 if self.mate[v] == -1 else self.other(self.mate[v], v) for v in range(n)]

    def blossom_chain(self, v: int) -> list[int]:
        out = []
        b = self.parent[v]
        while b != -1:
            out.append(b)
            b = self.parent[b]
        return out


def max_weight_matching(n: int, edges: Sequence[Edge]) -> list[int]:
    """``mate`` for vertices 0..n-1 (-1: unmatched): a matching of maximum cardinality, and of maximum total
    weight among those. ``edges`` are (i, j, weight) with integer weights, i != j, at most one per pair."""
    return _solve(n, edges)[0]


def max_weight_matching_textbook(n: int, edges: Sequence[Edge]) -> list[int]:
    """The same without the warm start (every dual starting equal): the baseline bench/tournament_pairing.py
    measures the fast path against, and the answer it must match."""
    return _Solver(n, edges, warm=False).solve()


def _solve(n: int, edges: Sequence[Edge]) -> tuple[list[int], _Solver]:
    solver = _Solver(n, edges, warm=n % 2 == 0)
    mate = solver.solve()
    if n % 2 == 0 and -1 in mate:
        solver = _Solver(n, edges, warm=False)
        mate = solver.solve()
    return mate, solver


def max_weight_matching_dense(n: int, weight: Callable[[int, int], int], candidates: Sequence[Sequence[int]]) -> list[int]:
    """The same over the complete graph on n vertices with ``weight(i, j)``, solved first on the ``candidates``
    edges (``candidates[i]``: vertices to try with i), then checked against every pair: a pair whose doubled
    slack is negative under the final duals joins the graph and the solve runs again, until none does (then
    the duals prove the matching optimal over every pair)."""
    chosen: dict[tuple[int, int], int] = {}
    for i in range(n):
        for j in candidates[i]:
            if i != j:
                key = (i, j) if i < j else (j, i)
                if key not in chosen:
                    chosen[key] = weight(*key)
    while True:
        edges = [(i, j, w) for (i, j), w in chosen.items()]
        mate, solver = _solve(n, edges)
        if -1 in mate and n % 2 == 0:
            missing = [(i, j) for i in range(n) for j in range(i + 1, n) if (i, j) not in chosen]
            for key in missing:
                chosen[key] = weight(*key)
            continue
        added = 0
        dual = solver.dual
        # per vertex: its blossoms from the innermost out, and for each the sum of its own and its ancestors'
        # duals (what an edge inside it adds to its slack, twice)
        chains = [solver.blossom_chain(v) for v in range(n)]
        above: list[dict[int, int]] = []
        for chain in chains:
            sums: dict[int, int] = {}
            total = 0
            for b in reversed(chain):
                total += dual[b]
                sums[b] = total
            above.append(sums)
        for i in range(n):
            di = dual[i]
            ci = chains[i]
            for j in range(i + 1, n):
                if (i, j) in chosen:
                    continue
                w = weight(i, j)
                s = di + dual[j] - 4 * w
                if s < 0 and ci and chains[j]:
                    aj = above[j]
                    for b in ci:
                        if b in aj:
                            s += 2 * aj[b]
                            break
                if s < 0:
                    chosen[(i, j)] = w
                    added += 1
        if not added:
            return mate
