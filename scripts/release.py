#!/usr/bin/env python3
"""The one release step: move every file that names the version together.

    scripts/release.py --dev 1.6 [-m TEXT]   start the development of 1.6
    scripts/release.py 1.6 [--date DATE]     release 1.6 (the release commit)

(`make release V=1.6`, `make release-dev V=1.6`.)  Both set

    bloomfilter.control           default_version = '1.6'
    META.json                     "version" and provides.bloomfilter.version 1.6.0
    clients/java/VERSION          1.6.0
    clients/python/.../_version.py  __version__ = "1.6.0"
    clients/rust/Cargo.toml       [package] version = "1.6.0"

and then, for --dev (the version in progress is what the control file
installs, so that every suite runs on it):

    CHANGELOG.md                  a "## 1.6 (unreleased)" section on top, if missing
    debian/changelog              an entry 1.6~dev-1 ("Development of 1.6.")
    bloomfilter--1.5--1.6.sql     the upgrade script, its guard only, if missing
    sql/setup.sql, expected/setup.out  the chain walked up to 1.6

and for a release:

    CHANGELOG.md                  "## 1.6 (unreleased)" becomes "## 1.6 (DATE)"
    debian/changelog              an entry 1.6-1 ("New upstream release 1.6.")
    META.json                     provides.bloomfilter.file bloomfilter--1.6.sql

A release needs its base script, bloomfilter--1.6.sql, beside the upgrade
chain (CONTRIBUTING.md: Releasing): the step refuses without it, and
without the CHANGELOG section that says what the release brings.  Files
already at the version are left as they are, so the step can be repeated.
At the end scripts/check-release.py checks that everything agrees (make
test runs that check too).  Nothing is committed: review, commit, then
`make test check-deb dist` and tag (CONTRIBUTING.md: Releasing).

--root DIR works on another copy of the tree (the check's self-test);
--date YYYY-MM-DD and SOURCE_DATE_EPOCH fix the dates written.
"""
import argparse
import datetime
import email.utils
import json
import os
import importlib.util
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('check_release', os.path.join(HERE, 'check-release.py'))
cr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cr)


def die(msg):
    print(f'release: {msg}', file=sys.stderr)
    sys.exit(1)


def read(root, rel):
    with open(os.path.join(root, rel), encoding='utf-8') as f:
        return f.read()


def write(root, rel, text, changed):
    path = os.path.join(root, rel)
    old = open(path, encoding='utf-8').read() if os.path.exists(path) else None
    if old != text:
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        changed.append(rel)


def sub1(pattern, repl, text, what):
    new, n = re.subn(pattern, repl, text, count=1, flags=re.M)
    if n != 1:
        die(f'cannot find {what}')
    return new


def when(args):
    if args.date:
        d = datetime.datetime.strptime(args.date, '%Y-%m-%d')
        return d.replace(hour=12, tzinfo=datetime.timezone.utc)
    epoch = os.environ.get('SOURCE_DATE_EPOCH')
    if epoch:
        return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc)
    return datetime.datetime.now(datetime.timezone.utc)


def debian_entry(root, version, text, moment):
    control = read(root, 'debian/control')
    m = re.search(r'^Maintainer:\s*(.+)$', control, re.M)
    maintainer = os.environ.get('DEBFULLNAME') and os.environ.get('DEBEMAIL') and \
        f"{os.environ['DEBFULLNAME']} <{os.environ['DEBEMAIL']}>" or (m and m.group(1).strip())
    if not maintainer:
        die('no Maintainer in debian/control')
    lines = []
    for para in text.split('\n'):
        words, line = para.split(), '  *'
        for w in words:
            if len(line) + 1 + len(w) > 76:
                lines.append(line)
                line = '   '
            line += ' ' + w
        lines.append(line)
    return (f'postgresql-bloomfilter ({version}) unstable; urgency=medium\n\n'
            + '\n'.join(lines) + '\n\n'
            + f' -- {maintainer}  {email.utils.format_datetime(moment)}\n\n')


def set_common(root, v, changed):
    semver = cr.semver(v)
    write(root, 'bloomfilter.control',
          sub1(r"^default_version\s*=\s*'[^']*'", f"default_version = '{v}'",
               read(root, 'bloomfilter.control'), 'default_version in bloomfilter.control'), changed)
    meta = json.loads(read(root, 'META.json'))
    meta['version'] = semver
    meta['provides']['bloomfilter']['version'] = semver
    write(root, 'META.json', json.dumps(meta, indent=3, ensure_ascii=False) + '\n', changed)
    write(root, cr.JAVA, semver + '\n', changed)
    write(root, cr.PYTHON, sub1(r'^__version__\s*=\s*"[^"]*"', f'__version__ = "{semver}"',
                                read(root, cr.PYTHON), '__version__'), changed)
    cargo = read(root, cr.RUST)
    write(root, cr.RUST, sub1(r'(\[package\][^\[]*?^version\s*=\s*)"[^"]*"', rf'\g<1>"{semver}"',
                              cargo, '[package] version in Cargo.toml'), changed)
    return meta


def walk_setup(root, prev, v, changed):
    """sql/setup.sql and its expected output walk the chain up to v"""
    setup = read(root, 'sql/setup.sql')
    step = f"ALTER EXTENSION bloomfilter UPDATE TO '{v}';\n"
    show = "SELECT extversion FROM pg_extension WHERE extname = 'bloomfilter';\n"
    if step in setup:
        return
    last = f"ALTER EXTENSION bloomfilter UPDATE TO '{prev}';\n" + show
    if last not in setup:
        die(f'sql/setup.sql does not walk up to {prev}')
    write(root, 'sql/setup.sql', setup.replace(last, last + step + show, 1), changed)
    out = read(root, 'expected/setup.out')
    block = (f"ALTER EXTENSION bloomfilter UPDATE TO '{prev}';\n" + show
             + f" extversion \n------------\n {prev}\n(1 row)\n\n")
    if block not in out:
        die(f'expected/setup.out does not show the update to {prev}')
    new = (step + show + f" extversion \n------------\n {v}\n(1 row)\n\n")
    write(root, 'expected/setup.out', out.replace(block, block + new, 1), changed)


def start_dev(root, v, message, moment, changed):
    set_common(root, v, changed)
    log = read(root, 'CHANGELOG.md')
    top = cr.changelog_top(log)
    if top is None or top[0] != v:
        m = re.search(r'^## ', log, re.M)
        at = m.start() if m else len(log)
        log = log[:at] + f'## {v} (unreleased)\n\n' + log[at:]
        write(root, 'CHANGELOG.md', log, changed)
    deb = read(root, 'debian/changelog')
    if not cr.debian_top(deb).startswith(v + '~'):
        write(root, 'debian/changelog',
              debian_entry(root, f'{v}~dev-1', message or f'Development of {v}.', moment) + deb, changed)
    prev = cr.previous_version(root, v)
    if prev is not None:
        script = f'bloomfilter--{prev}--{v}.sql'
        if not os.path.exists(os.path.join(root, script)):
            write(root, script,
                  f'/* {script} */\n\n'
                  '-- complain if script is sourced in psql, rather than via ALTER EXTENSION\n'
                  f'\\echo Use "ALTER EXTENSION bloomfilter UPDATE TO \'{v}\'" to load this file. \\quit\n',
                  changed)
        walk_setup(root, prev, v, changed)


def release(root, v, message, moment, changed):
    base = f'bloomfilter--{v}.sql'
    if not os.path.exists(os.path.join(root, base)):
        die(f'no base script {base}: a release installs from its own script, beside the '
            'upgrade chain (CONTRIBUTING.md: Releasing); write it, with sql/catalog_fresh.sql '
            'showing it makes the catalog the chain makes')
    log = read(root, 'CHANGELOG.md')
    top = cr.changelog_top(log)
    if top is None or top[0] != v:
        die(f'CHANGELOG.md has no "## {v} (unreleased)" section on top: say what {v} brings first')
    meta = set_common(root, v, changed)
    meta['provides']['bloomfilter']['file'] = base
    write(root, 'META.json', json.dumps(meta, indent=3, ensure_ascii=False) + '\n', changed)
    if top[1] == 'unreleased':
        log = sub1(rf'^## {re.escape(v)} \(unreleased\)', f'## {v} ({moment:%Y-%m-%d})', log,
                   'the CHANGELOG heading')
        write(root, 'CHANGELOG.md', log, changed)
    deb = read(root, 'debian/changelog')
    if cr.debian_top(deb) != f'{v}-1':
        write(root, 'debian/changelog',
              debian_entry(root, f'{v}-1', message or f'New upstream release {v}.', moment) + deb, changed)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('version', help='X.Y, as in bloomfilter.control')
    ap.add_argument('--dev', action='store_true', help='start the development of VERSION')
    ap.add_argument('-m', '--message', help="debian/changelog's text for the entry")
    ap.add_argument('--date', help='YYYY-MM-DD (default: today, or SOURCE_DATE_EPOCH)')
    ap.add_argument('--root', default=os.path.dirname(HERE), help='the tree (default: this one)')
    args = ap.parse_args()
    v = args.version
    if not re.fullmatch(r'\d+\.\d+', v):
        die(f'version {v!r} is not X.Y (the control file\'s form; PGXN gets X.Y.0)')
    changed = []
    (start_dev if args.dev else release)(args.root, v, args.message, when(args), changed)
    for rel in changed:
        print(f'release: {rel}')
    if not changed:
        print(f'release: every file is at {v} already')
    problems = cr.check(args.root)
    for p in problems:
        print(f'release: {p}', file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f'release: the versions agree ({"development of " if args.dev else ""}{v}); '
          'review and commit, then: make test check-deb' + ('' if args.dev else f' dist; git tag -a v{v}'))


if __name__ == '__main__':
    main()
