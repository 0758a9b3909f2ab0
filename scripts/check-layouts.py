#!/usr/bin/env python3
"""Check that a layout is named only in its own file.

Each layout's table (`const BloomLayout bloom_x_layout`, with its `.id`) is
defined in one file of src/.  No other file of src/ may name the table or
the id constant (`BLOOM_LAYOUT_*`), except:

- core/header.h's list of ids (the `#define BLOOM_LAYOUT_*` lines);
- the registry in core/header.c (its `extern const BloomLayout` and
  `[BLOOM_LAYOUT_*] = &bloom_*_layout,` lines);
- the functions named in ALLOWED below, where the id is the stored
  format a SQL function or the index makes, each with its reason.

Everything else asks the layout table (flags, texts, callbacks).  Tests,
fuzzers and benchmarks (test/, fuzz/, bench/) name layouts on purpose and
are not checked.  Comments are not code and are skipped.

    scripts/check-layouts.py [SRC_DIR]     check (default: src/)
    scripts/check-layouts.py --self-test   also prove it fails on a violation

Run by `make check-layouts`, part of `make test`.
"""
import os
import re
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (file, name): (the functions that may name it, why the id is named there);
# the rule is where, not how often
ALLOWED = {
    ('core/header.c', 'BLOOM_LAYOUT_BLOCKED512'):
        ({'bloom_header_init'},
         'a new header is a plain filter until its maker sets the layout'),
    ('core/scalable.c', 'BLOOM_LAYOUT_BLOCKED512'):
        ({'scalable_check_payload'}, "a scalable filter's sub-filters are stored as blocked512 filters"),
    ('type/aggregates.c', 'BLOOM_LAYOUT_BLOCKED512'):
        ({'bloom_agg_start'}, 'bf_agg(element, capacity, error_rate) makes a plain filter'),
    ('am/pages.c', 'BLOOM_LAYOUT_BLOCKED512'):
        ({'bloom_am_read_meta'}, "the index's metapage and pages hold a blocked512 filter"),
    ('am/build.c', 'BLOOM_LAYOUT_BLOCKED512'):
        ({'bloom_am_size'}, "the index's build makes a blocked512 filter"),
    ('type/kind_bloom.c', 'BLOOM_LAYOUT_BLOCKED512'):
        ({'bloom_create_untyped', 'bloom_new_scalable'},
         "bf_create's forms of 1.0 make a plain filter, and bloom_new_scalable "
         "checks its request as a plain filter's"),
    ('type/redis.c', 'BLOOM_LAYOUT_REDISBLOOM'):
        ({'bloomfilter_to_redisbloom'}, "bf_to_redisbloom writes RedisBloom's dump, which is layout 6's payload"),
    ('type/kind_bloom.c', 'BLOOM_LAYOUT_COUNTING4'):
        ({'bloom_create_untyped'}, "bf_create's counting argument (1.2) makes a counting filter"),
}

NAME_LINE = re.compile(r'^([A-Za-z_]\w*)\(')

TABLE = re.compile(r'^const BloomLayout (bloom_\w+_layout) = \{(.*?)^\};', re.M | re.S)
TABLE_ID = re.compile(r'\.id\s*=\s*(BLOOM_LAYOUT_\w+)')
ID_DEFINE = re.compile(r'^#define (BLOOM_LAYOUT_\w+)\s+\d+', re.M)
REGISTRY_LINE = re.compile(
    r'^\s*(extern const BloomLayout bloom_\w+_layout;|\[BLOOM_LAYOUT_\w+\] = &bloom_\w+_layout,)\s*$')


def strip_comments(text):
    """C comments become blanks, keeping line breaks (and so line numbers)."""
    def blank(m):
        return re.sub(r'[^\n]', ' ', m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*', blank, text, flags=re.S)


def sources(src):
    return sorted(os.path.relpath(os.path.join(d, f), src)
                  for d, _, files in os.walk(src) for f in files if f.endswith(('.c', '.h')))


def layouts(src):
    """{name: own file} for every table and id a layout file defines."""
    own = {}
    for f in sources(src):
        text = open(os.path.join(src, f), encoding='utf-8').read()
        for m in TABLE.finditer(strip_comments(text)):
            own[m.group(1)] = f
            ident = TABLE_ID.search(m.group(2))
            if ident:
                own[ident.group(1)] = f
    return own


def check(src):
    own = layouts(src)
    core_h = strip_comments(open(os.path.join(src, 'core/header.h'), encoding='utf-8').read())
    names = set(own) | set(ID_DEFINE.findall(core_h))
    if not own:
        return ['no layout tables found in %s' % src]
    word = re.compile(r'\b(' + '|'.join(sorted(names)) + r')\b')
    problems = []
    for f in sources(src):
        lines = strip_comments(open(os.path.join(src, f), encoding='utf-8').read()).split('\n')
        fn = None
        for n, line in enumerate(lines, 1):
            start = NAME_LINE.match(line)
            fn = start.group(1) if start else fn
            if f == 'core/header.h' and ID_DEFINE.match(line):
                continue
            if f == 'core/header.c' and REGISTRY_LINE.match(line):
                continue
            for name in word.findall(line):
                if own.get(name) == f:
                    continue
                if fn not in ALLOWED.get((f, name), (set(), None))[0]:
                    problems.append('src/%s:%d: %s names %s, which belongs to %s'
                                    % (f, n, fn, name, own.get(name, 'no layout file of src/')))
    return problems


def self_test():
    """A copy of src/ with one stray id must fail, a stray table too, and
    an allowed id in another function of its allowed file."""
    strays = [('type/planner.c', '\nstatic const void *stray = &BLOOM_LAYOUT_SCALABLE;\n'),
              ('type/planner.c', '\nstatic const void *stray = &bloom_counting_layout;\n'),
              ('type/aggregates.c', '\nstatic int\nstray(void)\n{\n\treturn BLOOM_LAYOUT_BLOCKED512;\n}\n')]
    for name, text in strays:
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, 'src')
            shutil.copytree(os.path.join(ROOT, 'src'), copy)
            with open(os.path.join(copy, name), 'a') as out:
                out.write(text)
            if not check(copy):
                return 'a stray %r in %s passed' % (text.strip(), name)
    return None


def main(argv):
    if argv[1:] == ['--self-test']:
        failure = self_test()
        if failure:
            print('check-layouts: self-test failed: ' + failure)
            return 1
        argv = argv[:1]
    src = argv[1] if len(argv) > 1 else os.path.join(ROOT, 'src')
    problems = check(src)
    for p in problems:
        print('check-layouts: ' + p)
    if problems:
        return 1
    print('check-layouts: every layout is named only in its own file, the registry and %d allowed functions'
          % len({(f, fn) for (f, _), (fns, _) in ALLOWED.items() for fn in fns}))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
