#!/usr/bin/env python3
"""The functions of a callgrind profile called at least N times, by the
source file that defines them (bench/check_path.sh: a check's path), and a
verdict: how many files, and whether that is at most MAX_FILES; the exit
status is 1 if it is more."""
import collections
import pathlib
import re
import sys

# a check's path through src/ enters at most this many files (issue 16)
MAX_FILES = 4

SRC = pathlib.Path(__file__).resolve().parent.parent / 'src'


def definitions():
    """Where each function of src/ is defined: its name starts a line there
    (PostgreSQL style puts the return type on the line before).  callgrind
    files a function under the file of its first instruction, which is a
    header's when the function begins with inlined code from it."""
    where = {}
    for f in sorted(SRC.glob('*/*.[ch]')):
        for line in f.read_text().splitlines():
            m = re.match(r'([A-Za-z_]\w*)\(', line)
            if m:
                where.setdefault(m.group(1), str(f))
    return where


def main(path, least):
    files, funcs = {}, {}
    defined_in = {}
    calls = collections.Counter()
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

    source = definitions()
    by_file = collections.defaultdict(list)
    for fn, n in calls.items():
        # gcc's clones (bloom_read_piece.isra.0) are the function they copy
        f = source.get(fn.split('.')[0]) or defined_in.get(fn) or ''
        if n >= least and '/src/' in f:
            by_file[f.split('/src/')[-1]].append(f'{fn} ({n})')
    for f in sorted(by_file):
        print(f'  {f}: ' + ', '.join(sorted(by_file[f])))
    n = len(by_file)
    print(f'  {n} files ' + (f'(<= {MAX_FILES})' if n <= MAX_FILES else f'(more than {MAX_FILES})'))
    return 0 if n <= MAX_FILES else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
