#!/usr/bin/env python3
"""Check that the table of filter kinds is complete and the only way in.

The glue (src/type/, src/am/) reaches a filter's
bytes through the kind table of src/type/kind.h.  This fails when:

- a function of the glue calls the cuckoo core (a function declared in
  core/cuckoo.h) and is neither in cuckoofilter's kind entry's file
  (type/kind_cuckoo.c) nor one of that entry's operations (a function the
  entry names, wherever it is defined: the stored reads of checks live in
  type/probe.c beside their only callers);
- a function of the glue calls a layout's callback (a function member of
  BloomLayout, called through anything named *layout*) and is neither in
  bloomfilter's kind entry's file (type/kind_bloom.c) nor one of that
  entry's operations, nor in a file of ALLOWED below (each with its
  reason: bloomfilter's aggregate state, which owns a payload of its own);
- an entry (`const BloomKind name = {...}`) leaves out a member of
  struct BloomKind, or bloom_kind_problem (src/type/module.c), which
  _PG_init runs on every entry, does not check one.

Comments are not code and are skipped.

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

CUCKOO_ENTRY = 'type/kind_cuckoo.c'
BLOOM_ENTRY = 'type/kind_bloom.c'

# file: (the functions of it that may call layout callbacks, or None for
# all, and why); the rule is who may call, not how often
ALLOWED = {
    'type/agg_state.c':
        (None, "bloomfilter's aggregate state holds a payload of its own and adds to it "
               "in batches, row by row"),
    'type/agg_hashlist.c':
        (None, "the unsized aggregate's state: a list of hashes, and the filter it "
               "becomes, unioned in place"),
    'type/value.h':
        ({'bloom_state_add'}, "the aggregate's per-row add, inline"),
}

NAME_LINE = re.compile(r'^([A-Za-z_]\w*)\(')

CORE_DECL = re.compile(r'^extern\b[^;(]*?\b(cuckoo_\w+)\s*\(', re.M)
STRUCT = r'^(?:typedef )?struct %s\s*\{(.*?)^\}'
FN_MEMBER = re.compile(r'\(\s*\*\s*(\w+)\s*\)\s*\(|\bBloom\w+Fn\s+(\w+)\s*$')
LAYOUT_CALL = re.compile(r'\b\w*layout\w*(?:\s*\([^()]*\))?\s*->\s*(\w+)\s*\(')
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


def struct_members(text, name, functions_only):
    m = re.search(STRUCT % name, text, re.M | re.S)
    if not m:
        return None
    body = m.group(1)
    members = []
    # one declaration a statement: a function member names itself in
    # (*name) or after its function type (BloomSpansFn spans)
    for stmt in re.sub(r'\s+', ' ', body).split(';'):
        fn = FN_MEMBER.search(stmt.strip())
        word = re.search(r'(\w+)\s*$', stmt)
        if fn:
            members.append(fn.group(1) or fn.group(2))
        elif word and not functions_only:
            members.append(word.group(1))
    return members


def operations(src, entry_file):
    """The functions a kind entry names: its operations, wherever defined."""
    m = ENTRY.search(read(src, entry_file))
    return set(re.findall(r'^\s*\.\w+\s*=\s*(\w+),', m.group(2), re.M)) if m else set()


def may_call(f, fn, entry_file, entry_ops, allowed):
    if f == entry_file or fn in entry_ops:
        return True
    if f in allowed:
        functions = allowed[f][0]
        return functions is None or fn in functions
    return False


def check_calls(src):
    core = set(CORE_DECL.findall(read(src, 'core/cuckoo.h')))
    callbacks = set(struct_members(read(src, 'core/header.h'), 'BloomLayout', True) or [])
    if not core or not callbacks:
        return ['no cuckoo core functions or layout callbacks found in %s' % src]
    cuckoo_ops = operations(src, CUCKOO_ENTRY)
    bloom_ops = operations(src, BLOOM_ENTRY)
    problems = []
    core_call = re.compile(r'\b(' + '|'.join(sorted(core)) + r')\s*\(')
    for f in glue(src):
        fn = None
        for n, line in enumerate(read(src, f).split('\n'), 1):
            start = NAME_LINE.match(line)
            fn = start.group(1) if start else fn
            for name in core_call.findall(line):
                if not may_call(f, fn, CUCKOO_ENTRY, cuckoo_ops, {}):
                    problems.append('src/%s:%d: %s calls the cuckoo core (%s): only %s and '
                                    'its entry\'s operations may' % (f, n, fn, name, CUCKOO_ENTRY))
            for name in LAYOUT_CALL.findall(line):
                if name in callbacks and not may_call(f, fn, BLOOM_ENTRY, bloom_ops, ALLOWED):
                    problems.append('src/%s:%d: %s calls a layout callback (%s): only %s, '
                                    'its entry\'s operations and the aggregate state may'
                                    % (f, n, fn, name, BLOOM_ENTRY))
    return problems


def check_entries(src):
    members = struct_members(read(src, 'type/kind.h'), 'BloomKind', False)
    if not members:
        return ['no struct BloomKind in src/type/kind.h']
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
    checked = {a or b for a, b in NEEDS.findall(read(src, 'type/module.c'))}
    unchecked = [x for x in members if x not in checked and x != 'create_key_arg']
    if unchecked:
        problems.append('src/type/module.c: bloom_kind_problem does not check %s'
                        % ', '.join(unchecked))
    return problems


def check(src):
    return check_calls(src) + check_entries(src)


def mutated(edit):
    """A copy of src/ changed by edit(copy); whether check() finds a problem."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, 'src')
        shutil.copytree(os.path.join(ROOT, 'src'), copy)
        edit(copy)
        return bool(check(copy))


def append(name, text):
    def edit(copy):
        with open(os.path.join(copy, name), 'a') as out:
            out.write(text)
    return edit


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
        ('a call of the cuckoo core in type/attributes.c',
         append('type/attributes.c', '\nstatic double stray(CuckooView *v) { return cuckoo_fpp(v); }\n')),
        ('a layout callback called in type/attributes.c',
         append('type/attributes.c',
                '\nstatic void stray(BloomView *v) { v->layout->info(&v->hdr, v->payload, NULL); }\n')),
        ('a call of the cuckoo core in type/probe.c outside the entry\'s operations',
         append('type/probe.c', '\nstatic double\nstray(CuckooView *v)\n{\n\treturn cuckoo_fpp(v);\n}\n')),
        ('a layout callback in type/value.h outside bloom_state_add',
         append('type/value.h',
                '\nstatic inline void\nstray(BloomState *s)\n{\n\ts->layout->finish(&s->hdr, s->payload);\n}\n')),
        ("an entry without its fpp",
         drop_line(CUCKOO_ENTRY, r'^\s*\.fpp = ')),
        ("bloom_kind_problem without its check of test",
         drop_line('type/module.c', r'BLOOM_KIND_NEEDS\(kind, test\)')),
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
    print('check-kinds: every kind entry is complete; only the entries and their operations '
          'call the cuckoo core and layout callbacks, and the aggregate state (%s)'
          % ', '.join(sorted(ALLOWED)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
