#!/usr/bin/env python3
"""One row of bench/check_path.sh's report, from a callgrind profile
collected inside one SQL entry point: the instructions per call of it
(CALLS calls), and the source files of src/ whose functions were called at
least LEAST times (the per-call path: setup done once per call site, such
as the element type's cache, is left out), with those functions.

    check_path.py PROFILE CALLS LEAST LABEL
    check_path.py --into RESULTS REPORT     put REPORT (the script's whole
                                            output) at the top of RESULTS,
                                            under its title

A report, not a rule: the benchmarks (bench/compare.sh) guard speed, and a
file a check enters is where its code belongs (CONTRIBUTING.md: Source
layout)."""
import collections
import pathlib
import re
import sys

SRC = pathlib.Path(__file__).resolve().parent.parent / 'src'


def definitions():
    """Where each function of src/ is defined: its name starts a line there
    (PostgreSQL style puts the return type on the line before).  callgrind
    files a function under the file of its first instruction, which is a
    header's when the function begins with inlined code from it."""
    where = {}
    for f in sorted(SRC.glob('**/*.[ch]')):
        for line in f.read_text().splitlines():
            m = re.match(r'([A-Za-z_]\w*)\(', line)
            if m:
                where.setdefault(m.group(1), str(f))
    return where


def profile(path):
    """({function: calls}, {function: file callgrind filed it under}, total Ir)"""
    files, funcs = {}, {}
    defined_in = {}
    calls = collections.Counter()
    total = 0
    current_file = None
    callee = None

    def name(table, text):
        # callgrind compresses names: "(id) name" the first time, "(id)" after
        m = re.match(r'\((\d+)\)(?: (.*))?', text)
        if not m:
            return text
        if m.group(2):
            table[m.group(1)] = m.group(2)
        return table.get(m.group(1), '?')

    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('fl='):
            current_file = name(files, line[3:])
        elif line.startswith(('fi=', 'fe=')):
            name(files, line[3:])
        elif line.startswith('fn='):
            defined_in.setdefault(name(funcs, line[3:]), current_file)
        elif line.startswith(('cfi=', 'cfl=')):
            name(files, line[4:])
        elif line.startswith('cfn='):
            callee = name(funcs, line[4:])
        elif line.startswith('calls='):
            calls[callee] += int(line[6:].split()[0])
        elif line.startswith(('summary:', 'totals:')):
            total = max(total, int(line.split()[1]))
    return calls, defined_in, total


def main(path, ncalls, least, label):
    calls, defined_in, total = profile(path)
    source = definitions()
    by_file = collections.defaultdict(list)
    for fn, n in calls.items():
        # gcc's clones (bloom_read_piece.isra.0) are the function they copy
        f = source.get(fn.split('.')[0]) or defined_in.get(fn) or ''
        if n >= least and '/src/' in f:
            by_file[f.split('/src/')[-1]].append(fn.split('.')[0])
    names = ', '.join('`%s` (%s)' % (f, ', '.join(sorted(set(by_file[f]))))
                      for f in sorted(by_file))
    print('| %s | %d | %s | %s |' % (label, len(by_file), '{:,}'.format(total // ncalls),
                                     names or '-'))
    return 0


def into(results, report):
    """The report as the newest section of results, after its title line."""
    lines = open(results, encoding='utf-8').read().split('\n')
    section = open(report, encoding='utf-8').read().rstrip('\n')
    title = 1 if lines and lines[0].startswith('# ') else 0
    lines[title:title] = ['', section]
    with open(results + '.new', 'w', encoding='utf-8') as out:
        out.write('\n'.join(lines))
    pathlib.Path(results + '.new').replace(results)
    return 0


if __name__ == '__main__':
    if sys.argv[1:2] == ['--into']:
        sys.exit(into(sys.argv[2], sys.argv[3]))
    sys.exit(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]))
