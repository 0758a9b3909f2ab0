#!/usr/bin/env python3
"""The functions of a callgrind profile called at least N times, by the
source file that defines them (bench/check_path.sh: a check's path)."""
import collections
import re
import sys


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

    by_file = collections.defaultdict(list)
    for fn, n in calls.items():
        f = defined_in.get(fn) or ''
        if n >= least and '/src/' in f:
            by_file[f.split('/src/')[-1]].append(f'{fn} ({n})')
    for f in sorted(by_file):
        print(f'  {f}: ' + ', '.join(sorted(by_file[f])))


if __name__ == '__main__':
    main(sys.argv[1], int(sys.argv[2]))
