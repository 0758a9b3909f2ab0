"""The ways a key is asked about, for the equality oracle.

A path is an SQL expression that is true when the filter (or index, or
shard) answers "present" for the probe.  Placeholders:

    {W}   the probe; every occurrence is a separate copy (a literal written
          again, or a parameter of its own with the same value)
    {S}   the probe, shared: every occurrence in one path is the same
          parameter (the prepared form of `bf_contains(f, $1)` beside
          `bf_shard($1, 8)`)
    {C}   the member itself, typed (m.col, or ROW(m.a, m.b))
    {CP}  the same over the partner row p (cf_remove's second member)
    {T}   the key type's name as a literal (for key_type => ...)
    {M} {F} {SH} {II} {IB} {IE} {IM} {IS}
          the members table, the filters table, the shards table and the
          indexes (insert-built, CREATE INDEX-built, expression, two
          columns, and the index of an empty shell that pg_dist_partition
          says keeps its rows elsewhere, as a Citus table's does)

Paths are evaluated in groups, one statement per group and (member, probe),
with the FROM clause of the group; a group whose statement fails is asked
again one path at a time, so that a refusal by one path does not hide the
answers of the others.
"""

# filter columns of the filters table: name -> aggregate over the members
# (m), made once per build profile
FILTER_KINDS = [
    ("bf_sized", "bf_agg({C}, 1000, 0.01 ORDER BY m.id)", "all"),
    ("bf_unsized", "bf_agg({C} ORDER BY m.id)", "all"),
    ("bf_counting", "bf_agg({C}, bf_create(1000, 0.01, counting => true) ORDER BY m.id)", "all"),
    ("bf_scalable", "bf_agg({C}, bf_create(8, 0.01, expansion => 2) ORDER BY m.id)", "all"),
    ("bf_typed", "bf_agg({C}, bf_create(1000, 0.01, key_type => {T}) ORDER BY m.id)", "all"),
    # the shape form of a template (bf_shape: the template made again on
    # the first row), here a scalable one that grows past it
    ("bf_shaped", "bf_agg({C}, bf_shape(bf_create(8, 0.01, expansion => 2)) ORDER BY m.id)", "all"),
    ("bf_addall", "bf_add_all(bf_create(1000, 0.01), array_agg({C} ORDER BY m.id))", "noarray"),
    ("cf", "cf_agg({C}, 1000 ORDER BY m.id)", "all"),
    ("cf_addall", "cf_add_all(cf_create(1000, 0.01), array_agg({C} ORDER BY m.id))", "noarray"),
    # layout 5, for the key types Guava has funnels of (and domains over them)
    ("bf_guava", "bf_agg({C}, bf_create(1000, 0.01, layout => 'guava', key_type => {T}) ORDER BY m.id)",
     "guava"),
    # out of line (240 kB and 390 kB in the TOAST table): read by chunks,
    # then held by the query and kept by the session between statements
    ("bf_stored", "bf_agg({C}, 200000, 0.01 ORDER BY m.id)", "all"),
    ("cf_stored", "cf_agg({C}, 200000 ORDER BY m.id)", "all"),
]
GUAVA_KEY_TYPES = ("bigint", "integer", "text", "bytea")
# made by bf_add one member at a time (a PL/pgSQL loop)
FOLD_KINDS = [("bf_add", "bloomfilter", "bf_add", "bf_create(1000, 0.01)"),
              ("cf_add", "cuckoofilter", "cf_add", "cf_create(1000, 0.01)")]
# made by bf_add of each member's literal ('abc'::citext is folded to a
# constant and reaches bf_add(bloomfilter, text) as text)
LITERAL_KINDS = ["bf_literals"]
FILTER_COLUMNS = [k for k, _, _ in FILTER_KINDS] + [k for k, _, _, _ in FOLD_KINDS] + LITERAL_KINDS


class Path:
    def __init__(self, name, group, expr, kinds=("scalar", "array", "record", "composite"),
                 needs=(), shared=False, unambiguous=False):
        self.name = name
        self.group = group
        self.expr = expr
        self.kinds = kinds          # which spec kinds it applies to
        self.needs = needs          # filter columns / objects it reads
        self.shared = shared        # uses {S}
        self.unambiguous = unambiguous  # only for probes equal to one class of members

    def __repr__(self):
        return self.name


NOARRAY = ("scalar", "record", "composite")
ALL = ("scalar", "array", "record", "composite")

PATHS = [
    # bloomfilter values built from the column
    Path("bf_contains/sized", "bf", "bf_contains(f.bf_sized, {W})", needs=("bf_sized",)),
    Path("@>/sized", "bf", "f.bf_sized @> {W}", needs=("bf_sized",)),
    Path("<@/sized", "bf", "{W} <@ f.bf_sized", needs=("bf_sized",)),
    Path("bf_contains_all/sized", "bf", "(bf_contains_all(f.bf_sized, ARRAY[{W}]))[1]", NOARRAY,
         needs=("bf_sized",)),
    Path("bf_contains/unsized", "bf", "bf_contains(f.bf_unsized, {W})", needs=("bf_unsized",)),
    Path("bf_contains/counting", "bf", "bf_contains(f.bf_counting, {W})", needs=("bf_counting",)),
    Path("bf_count/counting", "bf", "bf_count(f.bf_counting, {W}) >= 1", needs=("bf_counting",)),
    Path("bf_count/sized", "bf", "bf_count(f.bf_sized, {W}) >= 1", needs=("bf_sized",)),
    Path("bf_contains/scalable", "bf", "bf_contains(f.bf_scalable, {W})", needs=("bf_scalable",)),
    Path("bf_contains/typed", "bf", "bf_contains(f.bf_typed, {W})", needs=("bf_typed",)),
    Path("bf_contains/shaped", "bf", "bf_contains(f.bf_shaped, {W})", needs=("bf_shaped",)),
    Path("bf_contains/add_all", "bf", "bf_contains(f.bf_addall, {W})", NOARRAY, needs=("bf_addall",)),
    Path("bf_contains/bf_add", "bf", "bf_contains(f.bf_add, {W})", needs=("bf_add",)),
    Path("bf_contains/literals", "bf", "bf_contains(f.bf_literals, {W})", needs=("bf_literals",)),
    Path("bf_contains/guava", "bf", "bf_contains(f.bf_guava, {W})", needs=("bf_guava",)),
    Path("bf_contains_all/guava", "bf", "(bf_contains_all(f.bf_guava, ARRAY[{W}]))[1]", NOARRAY,
         needs=("bf_guava",)),
    Path("bf_contains/stored", "bf", "bf_contains(f.bf_stored, {W})", needs=("bf_stored",)),
    Path("bf_contains_all/stored", "bf", "(bf_contains_all(f.bf_stored, ARRAY[{W}]))[1]", NOARRAY,
         needs=("bf_stored",)),
    Path("bf_contains/const", "bf", "bf_contains({K}::bloomfilter, {W})", needs=("bf_sized",)),
    Path("where @>/sized", "bf",
         "EXISTS (SELECT 1 FROM {F} g WHERE g.build = f.build AND g.bf_sized @> {W})",
         needs=("bf_sized",)),
    # cuckoo filters
    Path("cf_contains", "cf", "cf_contains(f.cf, {W})", needs=("cf",)),
    Path("@>/cf", "cf", "f.cf @> {W}", needs=("cf",)),
    Path("<@/cf", "cf", "{W} <@ f.cf", needs=("cf",)),
    Path("cf_contains_all", "cf", "(cf_contains_all(f.cf, ARRAY[{W}]))[1]", NOARRAY, needs=("cf",)),
    Path("cf_contains/stored", "cf", "cf_contains(f.cf_stored, {W})", needs=("cf_stored",)),
    Path("cf_count", "cf", "cf_count(f.cf, {W}) >= 1", needs=("cf",)),
    Path("cf_contains/add_all", "cf", "cf_contains(f.cf_addall, {W})", NOARRAY, needs=("cf_addall",)),
    Path("cf_contains/cf_add", "cf", "cf_contains(f.cf_add, {W})", needs=("cf_add",)),
    # one copy of the member gone, and only that (not asked where the probe
    # is also equal to a member that is not equal to this one: SQL's
    # equality across types is not transitive, 'abc'::char(4) equals both
    # 'abc' and 'abc ' of a varchar column, and which copy goes is moot)
    Path("cf_remove", "cf", "cf_count(cf_remove(f.cf, {W}), {C}) = cf_count(f.cf, {C}) - 1",
         needs=("cf",), unambiguous=True),
    Path("cf_remove/other", "cf",
         "(SELECT coalesce(bool_and(cf_count(cf_remove(f.cf, {W}), {CP}) = 1), true) FROM {M} p "
         "WHERE p.id = ANY (f.partners) AND NOT coalesce({CP} = {C}, false) AND NOT coalesce({CP} = {W}, false))",
         needs=("cf",), unambiguous=True),
    # shards
    Path("bf_shard", "shard", "bf_shard({W}, 65536) = m.shard64k", needs=("shard",)),
    Path("bf_shard/key_type", "shard", "bf_shard({W}, 65536, {T}) = m.shard64k", needs=("shard",)),
    Path("shard route/check first", "shard",
         "coalesce((SELECT bf_contains(s.bf, {S}) FROM {SH} s WHERE s.shard = bf_shard({S}, 8)), false)",
         needs=("shard",), shared=True),
    Path("shard route/shard first", "shard",
         "coalesce((SELECT bool_or(bf_contains(s.bf, {S})) FROM (SELECT bf_shard({S}, 8) AS k) q "
         "JOIN {SH} s ON s.shard = q.k), false)", needs=("shard",), shared=True),
    Path("shard route/key_type", "shard",
         "coalesce((SELECT bf_contains(s.bf, {S}) FROM {SH} s WHERE s.shard = bf_shard({S}, 8, {T})), false)",
         needs=("shard",), shared=True),
    # the bloomfilter index
    Path("bf_index_contains/insert", "index", "bf_index_contains({II}::regclass, {W})", needs=("ii",)),
    Path("bf_index_contains/build", "index", "bf_index_contains({IB}::regclass, {W})", needs=("ib",)),
    Path("bf_index_contains_all", "index", "(bf_index_contains_all({IB}::regclass, ARRAY[{W}]))[1]",
         NOARRAY, needs=("ib",)),
    Path("bf_index_filter", "index", "bf_contains(bf_index_filter({IB}::regclass), {W})", needs=("ib",)),
    Path("bf_index_contains/expression", "index", "bf_index_contains({IE}::regclass, {W})",
         ("scalar", "array", "composite"), needs=("ie",)),
    Path("bf_index_contains/two columns", "index", "bf_index_contains({IM}::regclass, ROW({W}, m.id))",
         ("scalar",), needs=("im",)),
    # where the rows live: the index of a shell whose rows are elsewhere
    # refuses (0A000), whatever the probe; a group of its own, since its
    # refusal would send the index group's paths one at a time
    Path("bf_index_contains/rows elsewhere", "elsewhere", "bf_index_contains({IS}::regclass, {W})",
         needs=("is",)),
    # a filter given the probe, asked for the member
    Path("add probe/typed filter", "add",
         "bf_contains(bf_add(bf_create(100, 0.01, key_type => {T}), {W}), {C})"),
    Path("add probe/untyped filter", "add", "bf_contains(bf_add(bf_create(100, 0.01), {W}), {C})"),
    Path("add_all probe", "add", "bf_contains(bf_add_all(bf_create(100, 0.01), ARRAY[{W}]), {C})", NOARRAY),
    Path("cf_add probe", "add", "cf_contains(cf_add(cf_create(100, 0.01), {W}), {C})"),
    Path("bf_shard probe=member", "add", "bf_shard({W}, 65536) = bf_shard({C}, 65536)"),
]
PATH_BY_NAME = {p.name: p for p in PATHS}

# not asked for an untyped probe (forms.Probe.untyped "top"): an untyped
# filter takes such a probe as text, which is what SQL compares then
UNTYPED_TOP_SKIP = {"add probe/untyped filter", "add_all probe", "cf_add probe"}
# not asked for a ROW(...) with an untyped field ("inner"): neither a record
# filter given it nor bf_shard knows the member's column types
UNTYPED_INNER_SKIP_GROUPS = {"add", "shard"}


# the two-argument bf_shard (and the clients' shard() without a key type)
# hashes a value as its own type: asked only for probes whose type hashes
# as the member's (docs/pitfalls.md: shards); the key_type forms for all
KEYLESS_SHARD_PATHS = {"bf_shard", "shard route/check first", "shard route/shard first",
                       "bf_shard probe=member", "py:shard", "java:shard"}
_INTS = {"smallint", "integer", "bigint"}
_TEXTS = {"text", "character varying", "character", "name"}


def same_bytes(s, k):
    """The server's bloom_key_same_bytes (hash id 2) on type names."""
    if s is None or k is None or "record" in (s, k):
        return False            # a row's columns' types are not in its name
    if s == k or (s in _INTS and k in _INTS):
        return True
    if s in _TEXTS and k in _TEXTS:
        return not ((k == "character" and s != k) or (k == "character varying" and s == "character")
                    or (k == "name" and s != k))
    if s.endswith("[]") and k.endswith("[]"):
        return same_bytes(s[:-2], k[:-2])
    return ((k == "numeric" and s in _INTS) or ({s, k} <= {"real", "double precision"})
            or ({s, k} <= {"inet", "cidr"}))


def asked(path, probe):
    if probe.untyped == "top":
        return path.name not in UNTYPED_TOP_SKIP
    if probe.untyped == "inner":
        return path.group not in UNTYPED_INNER_SKIP_GROUPS
    return True
GROUPS = ["bf", "cf", "shard", "index", "elsewhere", "add"]

# client paths: answered by the clients from the fetched filter bytes
CLIENT_FILTERS = ["bf_sized", "bf_unsized", "bf_counting", "bf_scalable", "bf_typed", "bf_add", "cf",
                  "index"]
PY_PATHS = ["py:" + k for k in CLIENT_FILTERS] + ["py:shard", "py:shard/key_type"]
JAVA_PATHS = ["java:" + k for k in CLIENT_FILTERS] + ["java:shard"]


def spec_kind(spec):
    if spec.kind == "record":
        return "composite" if spec.composite else "record"
    return spec.kind


def applicable(path, spec, available):
    return spec_kind(spec) in path.kinds and all(n in available for n in path.needs)


def render(expr, probe, nparams, shared_slot=None):
    """expr with {W}/{S} replaced by the probe; returns (sql, params).
    Parameters are numbered from nparams + 1."""
    params = []
    out = []
    i = 0
    shared = None
    while True:
        j = expr.find("{", i)
        if j < 0:
            out.append(expr[i:])
            break
        out.append(expr[i:j])
        tok = expr[j:j + 3]
        if tok == "{W}":
            frag, ps = probe.instantiate(nparams + len(params))
            params.extend(ps)
            out.append(frag)
        elif tok == "{S}":
            if shared is None:
                shared = probe.instantiate(nparams + len(params))
                params.extend(shared[1])
            out.append(shared[0])
        else:
            out.append("{")
            j -= 2
        i = j + 3
    return "".join(out), params


def family(name):
    """Paths that fail together for one cause: every check of a filter
    value is one family; shards, indexes and adds are told apart."""
    if name.startswith(("py:", "java:")):
        return name.split(":")[0] + (":shard" if name.endswith("shard") else ":filters")
    p = PATH_BY_NAME[name]
    if p.group in ("bf", "cf"):
        return "cf_remove/other" if name == "cf_remove/other" else "filter values"
    if p.group == "index":
        return "index (two columns)" if name.endswith("two columns") else "index"
    if p.group == "add":
        if name.startswith("add probe/typed"):
            return "add probe (typed filter)"
        if name.startswith("bf_shard"):
            return "bf_shard"
        return "add probe (untyped filter)"
    return name
