#!/usr/bin/env python3
"""Check that every entry of the table of filter kinds is complete.

The glue (src/type/, src/am/) reaches a filter's bytes through the kind
table of src/type/kind.h.  This fails when an entry (`const BloomKind name
= {...}`) leaves out a member of struct BloomKind, or when
bloom_kind_problem (src/type/kind.c), which _PG_init runs on every entry,
does not check one: a kind that lacks an operation would crash where the
operation is called, so the module refuses to load with one.

Who may call whom is not this script's business: each kind's operations
live in its own files, and the layers and the calls between files are
scripts/check-layers.py's.  Comments are not code and are skipped.

    scripts/check-kinds.py [SRC_DIR]     check (default: src/)
    scripts/check-kinds.py --self-test   also prove it fails on each violation

Run by `make check-layouts`, part of `make test`.
"""
import importlib.util
import os
import re
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TABLE_HEADER = 'type/kind.h'
PROBLEM_FILE = 'type/kind.c'
CUCKOO_ENTRY = 'type/kind_cuckoo.c'

STRUCT = r'^(?:typedef )?struct %s\s*\{(.*?)^\}'
FN_MEMBER = re.compile(r'\(\s*\*\s*(\w+)\s*\)\s*\(|\bBloom\w+Fn\s+(\w+)\s*$')
ENTRY = re.compile(r'^const BloomKind (\w+) = \{(.*?)^\};', re.M | re.S)
DESIGNATED = re.compile(r'^\s*\.(\w+)\s*=', re.M)
NEEDS = re.compile(r'BLOOM_KIND_NEEDS\(kind, (\w+)\)|return "(\w+)";')


def _layouts_script():
    """scripts/check-layouts.py, whose reading of C this check shares."""
    spec = importlib.util.spec_from_file_location(
        'check_layouts', os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                      'check-layouts.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


strip_comments = _layouts_script().strip_comments


def read(src, name):
    return strip_comments(open(os.path.join(src, name), encoding='utf-8').read())


def glue(src):
    return sorted(os.path.join(d, f) for d in ('type', 'am')
                  for f in os.listdir(os.path.join(src, d)) if f.endswith(('.c', '.h')))


def struct_members(text, name):
    """The members of struct name, one declaration a statement: a function
    member names itself in (*name) or after its function type."""
    m = re.search(STRUCT % name, text, re.M | re.S)
    if not m:
        return None
    members = []
    for stmt in re.sub(r'\s+', ' ', m.group(1)).split(';'):
        fn = FN_MEMBER.search(stmt.strip())
        word = re.search(r'(\w+)\s*$', stmt)
        if fn:
            members.append(fn.group(1) or fn.group(2))
        elif word:
            members.append(word.group(1))
    return members


def check(src):
    members = struct_members(read(src, TABLE_HEADER), 'BloomKind')
    if not members:
        return ['no struct BloomKind in src/%s' % TABLE_HEADER]
    problems = []
    entries = 0
    for f in glue(src):
        for m in ENTRY.finditer(read(src, f)):
            entries += 1
            missing = [x for x in members if x not in DESIGNATED.findall(m.group(2))]
            if missing:
                problems.append('src/%s: kind entry %s lacks %s' % (f, m.group(1), ', '.join(missing)))
    if entries == 0:
        problems.append('no kind entries (const BloomKind ... = {) found in %s' % src)
    checked = {a or b for a, b in NEEDS.findall(read(src, PROBLEM_FILE))}
    unchecked = [x for x in members if x not in checked and x != 'create_key_arg']
    if unchecked:
        problems.append('src/%s: bloom_kind_problem does not check %s'
                        % (PROBLEM_FILE, ', '.join(unchecked)))
    return problems


def mutated(edit):
    """A copy of src/ changed by edit(copy); whether check() finds a problem."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, 'src')
        shutil.copytree(os.path.join(ROOT, 'src'), copy,
                        ignore=shutil.ignore_patterns('*.o', '*.bc'))
        edit(copy)
        return bool(check(copy))


def drop_line(name, pattern):
    def edit(copy):
        path = os.path.join(copy, name)
        lines = open(path).read().split('\n')
        kept = [l for l in lines if not re.search(pattern, l)]
        assert len(kept) == len(lines) - 1, pattern
        open(path, 'w').write('\n'.join(kept))
    return edit


def self_test():
    cases = [
        ("an entry without its fpp",
         drop_line(CUCKOO_ENTRY, r'^\s*\.fpp = ')),
        ("bloom_kind_problem without its check of test",
         drop_line(PROBLEM_FILE, r'BLOOM_KIND_NEEDS\(kind, test\)')),
    ]
    for what, edit in cases:
        if not mutated(edit):
            return what + ' passed'
    return None


def main(argv):
    if argv[1:] == ['--self-test']:
        failure = self_test()
        if failure:
            print('check-kinds: self-test failed: ' + failure)
            return 1
        argv = argv[:1]
    src = argv[1] if len(argv) > 1 else os.path.join(ROOT, 'src')
    problems = check(src)
    for p in problems:
        print('check-kinds: ' + p)
    if problems:
        return 1
    print('check-kinds: every kind entry is complete, and bloom_kind_problem checks every member')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
