#!/usr/bin/env python3
"""Check that src/ is built in layers, and that its files call one another
one way only.

The layers, lowest first, are the folders of src/ named in LAYERS below,
the one place the order is declared:

- core: plain C without server headers (the unit tests, fuzzers and
  benchmarks link it alone); it includes nothing but its own headers and
  the C library's;
- type: the PostgreSQL glue of both SQL types;
- am: the index access method.

Rules of includes, read from the sources:

- a file includes headers of its own folder and of the folders below it,
  never above;
- counting a .c file and the .h of the same name as one unit, the
  includes between units have no cycle.

Rules of calls, read from the objects (`nm` of each src/*/*.o, so build
first: `make all`): a file calls a function of another when its object
leaves the function's symbol undefined and the other's object defines it,
whether the code calls it, takes its address or an inline function of a
header calls it on the file's behalf.

- the calls between files have no cycle, in any layer or across layers: no
  file calls a file that calls it back, however long the way round;
- no file calls a function of a layer above its own.

A lower module reaches a higher one only through a table of callbacks it is
handed (the layout table, the kind table), never by name: that is why only
references to functions are calls here.  A reference to data, such as the
registry of core/header.c naming each layout's table or a generic function
naming a kind's entry, is the handing over of a table, not a call.

Rule of headers, read from both: in the layers of ONE_MODULE_HEADERS, a
header declares the functions of one module, a module being one .c file
(or, for a .c file in a folder of its own below the layer's, such as
type/keys/, that folder), so that a header is the door of the module it
names and the include graph shows who uses whom.  The access method is one
small module with one header (am/index.h), as contrib/bloom has bloom.h.

    scripts/check-layers.py [SRC_DIR]       check (default: src/)
    scripts/check-layers.py --report        also list each file's level, the
                                            files it calls and the modules
                                            each header declares functions of
    scripts/check-layers.py --self-test     also prove it fails on each violation

It prints the number of files, of the call and include edges between them,
of levels (the longest chain of calls and includes, counted in files, in
each layer) and of cycles.  Run by `make check-layers`, part of `make
test`, after `make all`.
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The layer order, lowest first: the only place it is written down.
LAYERS = ['core', 'type', 'am']

# The layers whose headers each declare the functions of one module.
ONE_MODULE_HEADERS = ['type']

# Headers the core may include: the C library's, never the server's.
CORE_SYSTEM = re.compile(r'^(std\w*|string|math|limits|float|errno|assert|ctype|murmurhash)\.h$')

INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)

# nm's letters for a function an object defines for others to call
FUNCTION_SYMBOL = set('TWi')

# a function a header declares: "extern <type> name(" up to the parenthesis
DECLARATION = re.compile(r'^\s*(?:pg_noreturn\s+)?extern\b[^;(]*?\b([A-Za-z_]\w*)\s*\(', re.M)


def strip_comments(text):
    """C comments become blanks, keeping line breaks (and so line numbers)."""
    def blank(m):
        return re.sub(r'[^\n]', ' ', m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*', blank, text, flags=re.S)


def sources(src, ext=('.c', '.h')):
    """Every file of src with one of the extensions, relative to it."""
    return sorted(os.path.relpath(os.path.join(d, f), src)
                  for d, _, files in os.walk(src) for f in files if f.endswith(ext))


def unit(path):
    return os.path.splitext(path)[0]


def layer(path):
    top = path.split(os.sep)[0]
    return LAYERS.index(top) if top in LAYERS and os.sep in path else None


def module(path):
    """The module a file belongs to: its unit, or its folder below a layer's."""
    parts = unit(path).split(os.sep)
    return os.sep.join(parts[:2]) if len(parts) > 2 else unit(path)


# ---- includes ----

def includes(src, path):
    """(kind, name, resolved path or None) of each include of path."""
    text = open(os.path.join(src, path), encoding='utf-8').read()
    here = os.path.dirname(path)
    found = []
    for quote, name in INCLUDE.findall(text):
        resolved = None
        if quote == '"':
            for cand in (os.path.normpath(os.path.join(here, name)), os.path.normpath(name)):
                if os.path.isfile(os.path.join(src, cand)):
                    resolved = cand
                    break
        found.append((quote, name, resolved))
    return found


def include_graph(src):
    """{unit: set of units it includes} and the list of layer problems."""
    edges = {}
    problems = []
    for f in sources(src):
        mine = layer(f)
        if mine is None:
            problems.append('src/%s is in no layer (%s)' % (f, ', '.join(LAYERS)))
        edges.setdefault(unit(f), set())
        for quote, name, target in includes(src, f):
            if target is None:
                if mine == 0 and not (quote == '<' and CORE_SYSTEM.match(name)):
                    problems.append('src/%s includes %s: the core includes only its own '
                                    'headers and the C library\'s' % (f, name))
                continue
            theirs = layer(target)
            if mine is not None and theirs is not None and theirs > mine:
                problems.append('src/%s includes %s: %s is above %s'
                                % (f, target, LAYERS[theirs], LAYERS[mine]))
            if unit(target) != unit(f):
                edges[unit(f)].add(unit(target))
    return edges, problems


# ---- calls ----

def symbols(obj):
    """(functions obj defines, symbols it leaves undefined), from nm."""
    try:
        out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit('check-layers: cannot read the symbols of %s: %s' % (obj, e))
    defined, undefined = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 2 and fields[0] == 'U':
            undefined.add(fields[1])
        elif len(fields) == 3 and fields[1] in FUNCTION_SYMBOL:
            defined.add(fields[2])
    return defined, undefined


def call_graph(src):
    """{file unit: {file unit it calls: the functions}} and {function: its
    file unit}, from the objects below src (None, None if there are none)."""
    # an object whose source is gone (a file moved since the last build) is
    # not part of the tree
    objects = [o for o in sources(src, ('.o',))
               if os.path.isfile(os.path.join(src, unit(o) + '.c'))]
    if not objects:
        return None, None
    defined, undefined = {}, {}
    owner = {}
    for o in objects:
        defined[unit(o)], undefined[unit(o)] = symbols(os.path.join(src, o))
        for fn in defined[unit(o)]:
            owner.setdefault(fn, unit(o))
    calls = {u: collections.defaultdict(set) for u in defined}
    for u, names in undefined.items():
        for fn in names:
            if fn in owner and owner[fn] != u:
                calls[u][owner[fn]].add(fn)
    return calls, owner


def call_problems(calls):
    problems = []
    for u in sorted(calls):
        for v in sorted(calls[u]):
            lu, lv = layer(u + '.c'), layer(v + '.c')
            if lu is not None and lv is not None and lv > lu:
                problems.append('src/%s.c calls %s (src/%s.c): %s is above %s'
                                % (u, ', '.join(sorted(calls[u][v])), v, LAYERS[lv], LAYERS[lu]))
    for comp in cycles(calls):
        ring = set(comp)
        ties = ['%s -> %s (%s)' % (u, v, ', '.join(sorted(calls[u][v])))
                for u in comp for v in sorted(calls[u]) if v in ring]
        problems.append('a call cycle: ' + '; '.join(ties))
    return problems


# ---- headers ----

def header_modules(src, owner):
    """{header: {module: the functions it declares that the module defines}}."""
    found = {}
    for h in sources(src, ('.h',)):
        text = strip_comments(open(os.path.join(src, h), encoding='utf-8').read())
        mods = collections.defaultdict(set)
        for name in DECLARATION.findall(text):
            if name in owner:
                mods[module(owner[name] + '.c')].add(name)
        found[h] = mods
    return found


def header_problems(headers):
    problems = []
    for h, mods in sorted(headers.items()):
        mine = layer(h)
        if mine is None or LAYERS[mine] not in ONE_MODULE_HEADERS or len(mods) < 2:
            continue
        problems.append('src/%s declares functions of %d modules (%s): a header declares '
                        'the functions of one'
                        % (h, len(mods), '; '.join('%s: %s' % (m, ', '.join(sorted(f)))
                                                   for m, f in sorted(mods.items()))))
    return problems


# ---- graphs ----

def cycles(edges):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def levels(edges):
    """{node: level}: 1 for a node that reaches no other, else one more
    than the highest it reaches; the nodes of a cycle share a level."""
    comp_of = {}
    for comp in cycles(edges):
        for v in comp:
            comp_of[v] = tuple(comp)
    level = {}

    def visit(v, seen):
        key = comp_of.get(v, (v,))
        if key in level:
            return level[key]
        if key in seen:
            return 0
        seen = seen | {key}
        below = [visit(w, seen) for u in key for w in edges.get(u, ()) if comp_of.get(w, (w,)) != key]
        level[key] = 1 + max(below, default=0)
        return level[key]

    return {v: visit(v, frozenset()) for v in edges}


def both(includes_of, calls):
    """Include and call edges together, between units."""
    edges = {u: set(v) for u, v in includes_of.items()}
    for u, vs in (calls or {}).items():
        edges.setdefault(u, set()).update(v for v in vs if v != u)
    return edges


def layer_levels(edges):
    """{layer: levels of the edges inside it}."""
    result = {}
    for i, name in enumerate(LAYERS):
        inside = {u: {v for v in vs if layer(v + '.c') == i}
                  for u, vs in edges.items() if layer(u + '.c') == i}
        result[name] = max(levels(inside).values(), default=0)
    return result


def check(src, objects_required=True):
    """(include edges, call edges, header modules, problems) of the tree src."""
    includes_of, problems = include_graph(src)
    for comp in cycles(includes_of):
        problems.append('an include cycle: ' + ' -> '.join(comp))
    calls, owner = call_graph(src)
    if calls is None:
        if objects_required:
            problems.append('no objects below %s to read calls from: build first (make all)' % src)
        return includes_of, {}, {}, problems
    problems += call_problems(calls)
    headers = header_modules(src, owner)
    problems += header_problems(headers)
    return includes_of, calls, headers, problems


# ---- the self-test ----

def copy_of_src(tmp):
    copy = os.path.join(tmp, 'src')
    shutil.copytree(os.path.join(ROOT, 'src'), copy, ignore=shutil.ignore_patterns('*.bc'))
    return copy


def append_to(copy, name, line):
    with open(os.path.join(copy, name), 'a') as out:
        out.write('\n' + line)


def compiled_tree(tmp, files):
    """A tree of objects compiled from {path: C text}, as the build leaves them."""
    src = os.path.join(tmp, 'src')
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(src, path)), exist_ok=True)
        with open(os.path.join(src, path), 'w') as out:
            out.write(text)
        if path.endswith('.c'):
            subprocess.run([os.environ.get('CC', 'cc'), '-c', '-O0', '-o',
                            os.path.join(src, unit(path) + '.o'), os.path.join(src, path)],
                           check=True)
    return src


LOW = 'int low_twice(int x);\nint low_twice(int x) { return 2 * x; }\n'
HIGH = ('int low_twice(int x);\nint high_four(int x);\n'
        'int high_four(int x) { return low_twice(low_twice(x)); }\n')
LOW_CALLING_HIGH = ('int high_four(int x);\nint low_twice(int x);\n'
                    'int low_twice(int x) { return x > 100 ? x : high_four(x) / 2; }\n')
PEER_A = 'int peer_b(int x);\nint peer_a(int x);\nint peer_a(int x) { return x ? peer_b(x - 1) : 0; }\n'
PEER_B = 'int peer_a(int x);\nint peer_b(int x);\nint peer_b(int x) { return x ? peer_a(x - 1) : 1; }\n'


def self_test():
    source_cases = [
        ('an include of type/ in the core',
         'core/sizing.c', '#include "type/kind.h"\n'),
        ('a server header in the core',
         'core/sizing.c', '#include "postgres.h"\n'),
        ('an include of am/ in type/',
         'type/probe.c', '#include "am/index.h"\n'),
        ('an include cycle in type/',
         'type/value.h', '#include "type/kind.h"\n'),
        ('a header of type/ declaring a function of another module',
         'type/jsonb.h', 'extern void bloom_read(Datum d, BloomView *v);\n'),
    ]
    for what, name, line in source_cases:
        with tempfile.TemporaryDirectory() as tmp:
            copy = copy_of_src(tmp)
            append_to(copy, name, line)
            if not check(copy)[3]:
                return what + ' passed'
    object_cases = [
        ('a call cycle between two files of type/',
         {'type/peer_a.c': PEER_A, 'type/peer_b.c': PEER_B}, True),
        ('a call from the core to type/ (and back)',
         {'core/low.c': LOW_CALLING_HIGH, 'type/high.c': HIGH}, True),
        ('calls one way only',
         {'core/low.c': LOW, 'type/high.c': HIGH}, False),
    ]
    for what, files, must_fail in object_cases:
        with tempfile.TemporaryDirectory() as tmp:
            problems = check(compiled_tree(tmp, files))[3]
            if bool(problems) != must_fail:
                return '%s %s' % (what, 'passed' if not problems else 'failed: ' + problems[0])
    return None


def main(argv):
    args = argv[1:]
    report = '--report' in args
    if '--self-test' in args:
        failure = self_test()
        if failure:
            print('check-layers: self-test failed: ' + failure)
            return 1
    args = [a for a in args if not a.startswith('--')]
    src = args[0] if args else os.path.join(ROOT, 'src')
    includes_of, calls, headers, problems = check(src)
    edges = both(includes_of, calls)
    level = levels(edges)
    if report:
        for v in sorted(level, key=lambda v: (layer(v + '.c') or 0, level[v], v)):
            print('  %d %s calls %s; includes %s'
                  % (level[v], v, ', '.join(sorted(calls.get(v, {}))) or '-',
                     ', '.join(sorted(includes_of.get(v, ()))) or '-'))
        for h, mods in sorted(headers.items()):
            if mods:
                print('  %s declares functions of %d module%s: %s'
                      % (h, len(mods), '' if len(mods) == 1 else 's', ', '.join(sorted(mods))))
        lines = {f: sum(1 for _ in open(os.path.join(src, f), encoding='utf-8'))
                 for f in sources(src)}
        largest = max(lines, key=lines.get)
        print('  the largest file: %s, %d lines' % (largest, lines[largest]))
    for p in problems:
        print('check-layers: ' + p)
    files = {u for u in edges if u + '.c' in set(sources(src, ('.c',)))}
    print('check-layers: %d files, %d call edges and %d include edges between them, '
          '%d cycles; levels %s; modules a header declares functions of, at most: %s; '
          'layers %s'
          % (len(files), sum(len(e) for e in calls.values()),
             sum(len(e) for e in includes_of.values()),
             len(cycles(calls)) + len(cycles(includes_of)),
             ', '.join('%s %d' % kv for kv in layer_levels(edges).items()),
             ', '.join('%s %d' % (name, max((len(m) for h, m in headers.items()
                                            if layer(h) == i), default=0))
                       for i, name in enumerate(LAYERS)),
             ' < '.join(LAYERS)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
