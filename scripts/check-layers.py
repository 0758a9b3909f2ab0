#!/usr/bin/env python3
"""Check that src/ is built in layers, each including only those below it.

The layers, lowest first, are the folders of src/ named in LAYERS below,
the one place the order is declared:

- core: plain C without server headers (the unit tests, fuzzers and
  benchmarks link it alone); it includes nothing but its own headers and
  the C library's;
- type: the PostgreSQL glue of both SQL types;
- am: the index access method.

A file may include headers of its own folder and of the folders below it,
never above: a lower layer reaches a higher one through a table of
callbacks (the layout table, the kind table), never through an include.
Counting a .c file and the .h of the same name as one unit, the includes
between units must have no cycle.

    scripts/check-layers.py [SRC_DIR]       check (default: src/)
    scripts/check-layers.py --report        also list every unit's level
    scripts/check-layers.py --self-test     also prove it fails on each violation

It prints the number of edges between units and the number of levels (the
longest chain of includes, counted in units) that an architecture review
reads.  Run by `make check-layers`, part of `make test`.
"""
import os
import re
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The layer order, lowest first: the only place it is written down.
LAYERS = ['core', 'type', 'am']

# Headers the core may include: the C library's, never the server's.
CORE_SYSTEM = re.compile(r'^(std\w*|string|math|limits|float|errno|assert|ctype|murmurhash)\.h$')

INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)


def sources(src):
    """Every .c and .h below src, as paths relative to it."""
    return sorted(os.path.relpath(os.path.join(d, f), src)
                  for d, _, files in os.walk(src) for f in files if f.endswith(('.c', '.h')))


def unit(path):
    return os.path.splitext(path)[0]


def layer(path):
    top = path.split(os.sep)[0]
    return LAYERS.index(top) if top in LAYERS and os.sep in path else None


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


def graph(src):
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


def cycles(edges):
    """The strongly connected components of more than one unit (Tarjan)."""
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
    """{unit: level}: 1 for a unit that includes no other, else one more
    than the highest it includes; the units of a cycle share a level."""
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


def check(src):
    edges, problems = graph(src)
    for comp in cycles(edges):
        problems.append('an include cycle: ' + ' -> '.join(comp))
    return edges, problems


def self_test():
    cases = [
        ('an include of type/ in the core',
         'core/sizing.c', '#include "type/kind.h"\n'),
        ('a server header in the core',
         'core/sizing.c', '#include "postgres.h"\n'),
        ('an include of am/ in type/',
         'type/probe.c', '#include "am/index.h"\n'),
        ('an include cycle in type/',
         'type/jsonb.h', '#include "type/kind.h"\n'),
    ]
    for what, name, line in cases:
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, 'src')
            shutil.copytree(os.path.join(ROOT, 'src'), copy,
                            ignore=shutil.ignore_patterns('*.o', '*.bc'))
            with open(os.path.join(copy, name), 'a') as out:
                out.write('\n' + line)
            if not check(copy)[1]:
                return what + ' passed'
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
    edges, problems = check(src)
    level = levels(edges)
    if report:
        for v in sorted(level, key=lambda v: (level[v], v)):
            print('  %d %s -> %s' % (level[v], v, ', '.join(sorted(edges[v])) or '-'))
    for p in problems:
        print('check-layers: ' + p)
    print('check-layers: %d units, %d include edges between them, %d levels, %d cycles, '
          'layers %s'
          % (len(edges), sum(len(e) for e in edges.values()), max(level.values(), default=0),
             len(cycles(edges)), ' < '.join(LAYERS)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
