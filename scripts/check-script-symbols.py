#!/usr/bin/env python3
"""Check that every C symbol an install or upgrade script names is exported.

Each `CREATE FUNCTION name(...) ... AS 'MODULE_PATHNAME'[, 'symbol']` of
every bloomfilter--*.sql and bloomfilter_citus--*.sql (the released
scripts included: a database on an old release still runs them when it
upgrades) names a symbol of the library: the one given, or the function's
own name.  A symbol the library no longer exports fails CREATE EXTENSION
or ALTER EXTENSION UPDATE on a user's server.

    scripts/check-script-symbols.py LIBRARY   check (nm -D of the library)
    scripts/check-script-symbols.py --self-test LIBRARY
                                             also prove it fails on a missing one

Run by `make check-symbols`, part of `make test`.
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FUNCTION = re.compile(
    r"CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(?:[\w\"]+\.)?\"?(\w+)\"?\s*\((.*?);",
    re.I | re.S)
MODULE = re.compile(r"AS\s+'MODULE_PATHNAME'\s*(?:,\s*'(\w+)')?", re.I)


def script_symbols():
    """{symbol: first script naming it}"""
    wanted = {}
    for path in sorted(glob.glob(os.path.join(ROOT, 'bloomfilter--*.sql'))
                       + glob.glob(os.path.join(ROOT, 'bloomfilter_citus--*.sql'))):
        text = re.sub(r'--[^\n]*', '', open(path, encoding='utf-8').read())
        for m in FUNCTION.finditer(text):
            module = MODULE.search(m.group(2))
            if module:
                wanted.setdefault(module.group(1) or m.group(1), os.path.basename(path))
    return wanted


def exported(library):
    out = subprocess.run(['nm', '-D', '--defined-only', library], check=True,
                         capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def missing(wanted, have):
    return sorted((s, f) for s, f in wanted.items() if s not in have)


def main(argv):
    self_test = '--self-test' in argv
    args = [a for a in argv[1:] if a != '--self-test']
    if len(args) != 1:
        print(__doc__)
        return 2
    wanted = script_symbols()
    have = exported(args[0])
    if self_test:
        some = sorted(wanted)[0] if wanted else None
        if some is None or not missing(wanted, have - {some}):
            print('check-script-symbols: self-test failed: a missing symbol passed')
            return 1
    gone = missing(wanted, have)
    for symbol, script in gone:
        print('check-script-symbols: %s (named by %s) is not exported by %s'
              % (symbol, script, args[0]))
    if gone:
        return 1
    print('check-script-symbols: the %d C symbols the scripts name are all exported' % len(wanted))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
