#!/usr/bin/env python3
"""Check that the table of filter kinds is complete and the only way in.

The glue (src/type/, src/am/) reaches a filter's
bytes through the kind table of src/type/kind.h.  This fails when:

- a glue file other than cuckoofilter's kind entry (type/kind_cuckoo.c)
  calls a function of the cuckoo core (one declared in core/cuckoo.h),
  except the places in CORE_ALLOWED below, each with its count and reason;
- a glue file other than bloomfilter's kind entry (type/kind_bloom.c)
  calls a layout's callback (a function member of BloomLayout, called
  through anything named *layout*), except the places in ALLOWED below,
  each with its count and reason;
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

# file: (calls of layout callbacks, why that file makes them itself)
ALLOWED = {
    'type/agg_state.c':
        (8, "bloomfilter's aggregate state holds a payload of its own and adds to it "
            "in batches, row by row"),
    'type/agg_hashlist.c':
        (3, "the unsized aggregate's state: a list of hashes, and the filter it "
            "becomes, unioned in place"),
    'type/value.h':
        (1, "bloom_state_add, the aggregate's per-row add, inline"),
    'type/probe.c':
        (2, "bloomfilter's stored reads (dir_next, dir_predict) sit beside the checks, "
            "their only callers, so that a check passes through no kind file"),
}

# file: (calls of the cuckoo core, why that file makes them itself)
CORE_ALLOWED = {
    'type/probe.c':
        (3, "cuckoofilter's stored reads (open, dir_next, dir_predict) sit beside the "
            "checks, their only callers, so that a check passes through no kind file"),
}

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


def check_calls(src):
    core = set(CORE_DECL.findall(read(src, 'core/cuckoo.h')))
    callbacks = set(struct_members(read(src, 'core/header.h'), 'BloomLayout', True) or [])
    if not core or not callbacks:
        return ['no cuckoo core functions or layout callbacks found in %s' % src]
    problems = []
    core_call = re.compile(r'\b(' + '|'.join(sorted(core)) + r')\s*\(')
    for f in glue(src):
        count = 0
        core_count = 0
        for n, line in enumerate(read(src, f).split('\n'), 1):
            if f != CUCKOO_ENTRY:
                for name in core_call.findall(line):
                    core_count += 1
                    if f not in CORE_ALLOWED:
                        problems.append('src/%s:%d calls the cuckoo core (%s): only %s may'
                                        % (f, n, name, CUCKOO_ENTRY))
            if f == BLOOM_ENTRY:
                continue
            for name in LAYOUT_CALL.findall(line):
                if name not in callbacks:
                    continue
                count += 1
                if f not in ALLOWED:
                    problems.append('src/%s:%d calls a layout callback (%s): only %s may'
                                    % (f, n, name, BLOOM_ENTRY))
        if f in CORE_ALLOWED and core_count != CORE_ALLOWED[f][0]:
            problems.append('src/%s calls the cuckoo core %d times, %d allowed (%s)'
                            % (f, core_count, CORE_ALLOWED[f][0], CORE_ALLOWED[f][1]))
        if f in ALLOWED and count != ALLOWED[f][0]:
            problems.append('src/%s calls layout callbacks %d times, %d allowed (%s)'
                            % (f, count, ALLOWED[f][0], ALLOWED[f][1]))
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
        ('a layout callback called in type/attributes_cuckoo.c',
         append('type/attributes_cuckoo.c',
                '\nstatic void stray(BloomView *v) { v->layout->info(&v->hdr, v->payload, NULL); }\n')),
        ('one more call of the cuckoo core in type/probe.c',
         append('type/probe.c', '\nstatic double stray(CuckooView *v) { return cuckoo_fpp(v); }\n')),
        ('one more layout callback in type/agg_state.c',
         append('type/agg_state.c',
                '\nstatic void stray(BloomState *s) { s->layout->finish(&s->hdr, s->payload); }\n')),
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
    print('check-kinds: every kind entry is complete; only the entries call the cuckoo core '
          'and layout callbacks, but for %d allowed calls (the aggregate state, the stored '
          'reads of checks)'
          % sum(c for c, _ in list(ALLOWED.values()) + list(CORE_ALLOWED.values())))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
