#!/usr/bin/env python3
"""Check that every file naming the release agrees, so none lags one.

The version is bloomfilter.control's default_version, V (X.Y); PGXN and
the clients take it as X.Y.0.  It must be:

    META.json            "version" and provides.bloomfilter.version X.Y.0;
                         provides.*.file exist; provides.bloomfilter_citus
                         at bloomfilter_citus.control's version
    CHANGELOG.md         the first section "## V (unreleased)" or "## V (YYYY-MM-DD)"
    debian/changelog     the latest entry V~something-N while CHANGELOG says
                         unreleased (a development version sorts before V-1),
                         V-N once it has a date
    clients              clients/java/VERSION, the Python package's
                         __version__, clients/rust/Cargo.toml's version: X.Y.0
    the scripts          bloomfilter--*--V.sql exists, sql/setup.sql walks the
                         chain up to V; once released, bloomfilter--V.sql
                         exists and META.json provides it

scripts/release.py moves them all in one step (CONTRIBUTING.md: Releasing).

    scripts/check-release.py              check this tree
    scripts/check-release.py --self-test  also: in scratch copies, release.py
                                          --dev NEXT and a release of V make
                                          trees that pass, and a tree with one
                                          file lagging fails, naming it

Run by `make check-release`, part of `make test`.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAVA = 'clients/java/VERSION'
PYTHON = 'clients/python/src/pgbloomfilter/_version.py'
RUST = 'clients/rust/Cargo.toml'


def semver(v):
    parts = v.split('.')
    return '.'.join(parts + ['0'] * (3 - len(parts)))


def vkey(v):
    return tuple(int(x) for x in v.split('.'))


def read(root, rel):
    path = os.path.join(root, rel)
    if not os.path.exists(path):
        return None
    with open(path, encoding='utf-8') as f:
        return f.read()


def control_version(text):
    m = re.search(r"^default_version\s*=\s*'([^']*)'", text or '', re.M)
    return m and m.group(1)


def changelog_top(text):
    """(version, 'unreleased' or the date) of CHANGELOG.md's first section"""
    m = re.search(r'^## (\S+) \(([^)]*)\)\s*$', text or '', re.M)
    return m and (m.group(1), m.group(2))


def debian_top(text):
    m = re.match(r'\S+ \(([^)]+)\)', text or '')
    return m and m.group(1)


def previous_version(root, v):
    """the highest version below v that a script of the tree reaches"""
    seen = set()
    for name in os.listdir(root):
        m = re.fullmatch(r'bloomfilter--(?:[\d.]+--)?([\d.]+)\.sql', name)
        if m and vkey(m.group(1)) < vkey(v):
            seen.add(m.group(1))
    return max(seen, key=vkey) if seen else None


def check(root):
    problems = []
    bad = problems.append
    v = control_version(read(root, 'bloomfilter.control'))
    if not v:
        return ['bloomfilter.control has no default_version']
    sv = semver(v)

    meta_text = read(root, 'META.json')
    try:
        meta = json.loads(meta_text or '')
    except ValueError:
        meta = None
        bad('META.json is missing or not JSON')
    if meta:
        if meta.get('version') != sv:
            bad(f"META.json version is {meta.get('version')}, bloomfilter.control says {v} (PGXN: {sv})")
        prov = meta.get('provides', {})
        if prov.get('bloomfilter', {}).get('version') != sv:
            bad(f"META.json provides bloomfilter {prov.get('bloomfilter', {}).get('version')}, not {sv}")
        citus = control_version(read(root, 'bloomfilter_citus.control'))
        if citus and prov.get('bloomfilter_citus', {}).get('version') != semver(citus):
            bad(f"META.json provides bloomfilter_citus {prov.get('bloomfilter_citus', {}).get('version')}, "
                f"bloomfilter_citus.control says {citus}")
        for name, p in prov.items():
            if not p.get('file') or read(root, p['file']) is None:
                bad(f"META.json provides {name} from {p.get('file')!r}, which the tree lacks")

    top = changelog_top(read(root, 'CHANGELOG.md'))
    released = False
    if not top:
        bad('CHANGELOG.md has no "## VERSION (unreleased|date)" section')
    elif top[0] != v:
        bad(f'CHANGELOG.md begins with {top[0]}, bloomfilter.control says {v}')
    elif top[1] != 'unreleased':
        if not re.fullmatch(r'\d{4}-\d{2}-\d{2}', top[1]):
            bad(f'CHANGELOG.md: "## {v} ({top[1]})" is neither "unreleased" nor a date')
        released = True

    deb = debian_top(read(root, 'debian/changelog'))
    if not deb:
        bad('debian/changelog has no entry')
    else:
        upstream = deb.split(':', 1)[-1].rsplit('-', 1)[0]
        if released and upstream != v:
            bad(f'debian/changelog is at {deb}; {v} is released (CHANGELOG.md): it needs {v}-1')
        elif not released and not upstream.startswith(v + '~'):
            bad(f'debian/changelog is at {deb}; {v} is in development (CHANGELOG.md): it needs {v}~dev-1')

    java = (read(root, JAVA) or '').strip()
    if java != sv:
        bad(f'{JAVA} is {java or "missing"}, not {sv}')
    m = re.search(r'^__version__\s*=\s*"([^"]*)"', read(root, PYTHON) or '', re.M)
    if not m or m.group(1) != sv:
        bad(f'{PYTHON} says {m and m.group(1)}, not {sv}')
    m = re.search(r'\[package\][^\[]*?^version\s*=\s*"([^"]*)"', read(root, RUST) or '', re.M | re.S)
    if not m or m.group(1) != sv:
        bad(f'{RUST} [package] version is {m and m.group(1)}, not {sv}')

    prev = previous_version(root, v)
    if prev and read(root, f'bloomfilter--{prev}--{v}.sql') is None:
        bad(f'no upgrade script bloomfilter--{prev}--{v}.sql')
    if f"UPDATE TO '{v}'" not in (read(root, 'sql/setup.sql') or '') and prev:
        bad(f'sql/setup.sql does not walk the upgrade chain up to {v}')
    if released:
        if read(root, f'bloomfilter--{v}.sql') is None:
            bad(f'{v} is released but has no base script bloomfilter--{v}.sql')
        elif meta and meta.get('provides', {}).get('bloomfilter', {}).get('file') != f'bloomfilter--{v}.sql':
            bad(f'META.json provides bloomfilter from {meta["provides"]["bloomfilter"].get("file")}, '
                f'not the base script of {v}')
    return problems


def self_test():
    """release.py in scratch copies: its trees pass; a lagging file fails"""
    files = subprocess.run(['git', '-C', ROOT, 'ls-files'], capture_output=True, text=True,
                           check=True).stdout.split()
    wanted = [f for f in files if '/' not in f or f.startswith(('debian/', 'clients/java/VERSION',
              'clients/python/src/pgbloomfilter/_version.py', 'clients/rust/Cargo.toml',
              'sql/setup.sql', 'expected/setup.out'))]
    v = control_version(read(ROOT, 'bloomfilter.control'))
    nxt = f'{v.split(".")[0]}.{int(v.split(".")[1]) + 1}'
    release = [sys.executable, os.path.join(ROOT, 'scripts', 'release.py')]
    env = dict(os.environ, SOURCE_DATE_EPOCH='1800000000')
    failures = []

    def copy():
        d = tempfile.mkdtemp(prefix='bf-check-release.')
        for f in wanted:
            if os.path.exists(os.path.join(ROOT, f)):
                os.makedirs(os.path.join(d, os.path.dirname(f)), exist_ok=True)
                shutil.copy2(os.path.join(ROOT, f), os.path.join(d, f))
        return d

    def expect(what, ok):
        print(f'check-release self-test: {"ok" if ok else "FAILED"}: {what}')
        if not ok:
            failures.append(what)

    # 1. the next development version: every file moves, and the tree agrees
    d = copy()
    r = subprocess.run(release + ['--dev', nxt, '--root', d], capture_output=True, text=True, env=env)
    expect(f'release.py --dev {nxt} makes a tree that agrees', r.returncode == 0 and not check(d))
    expect(f'... the control file installs {nxt}',
           control_version(read(d, 'bloomfilter.control')) == nxt)
    expect(f'... debian/changelog at {nxt}~dev-1', debian_top(read(d, 'debian/changelog')) == f'{nxt}~dev-1')
    expect(f'... CHANGELOG.md opens "## {nxt} (unreleased)"',
           changelog_top(read(d, 'CHANGELOG.md')) == (nxt, 'unreleased'))
    expect(f'... the upgrade script bloomfilter--{v}--{nxt}.sql, guard only',
           '\\quit' in (read(d, f'bloomfilter--{v}--{nxt}.sql') or ''))
    expect(f'... every client at {semver(nxt)}',
           all(semver(nxt) in (read(d, f) or '') for f in (JAVA, PYTHON, RUST)))
    expect(f'... sql/setup.sql and its expected output walk up to {nxt}',
           f"UPDATE TO '{nxt}'" in read(d, 'sql/setup.sql') and f' {nxt}\n(1 row)' in read(d, 'expected/setup.out'))
    r2 = subprocess.run(release + ['--dev', nxt, '--root', d], capture_output=True, text=True, env=env)
    expect('... and a second run changes nothing', r2.returncode == 0 and 'already' in r2.stdout)
    # 2. one file left behind: the check names it
    for rel, lag in ((JAVA, f'{semver(v)}\n'),
                     ('debian/changelog', read(ROOT, 'debian/changelog'))):
        with open(os.path.join(d, rel), 'w', encoding='utf-8') as f:
            f.write(lag)
        problems = check(d)
        expect(f'a tree with {rel} lagging fails, naming it', any(rel in p for p in problems))
        shutil.copy2(os.path.join(ROOT, rel), os.path.join(d, rel))
    shutil.rmtree(d)
    # 3. the release of the current version: refused without its base script,
    #    and with one, a dated CHANGELOG, debian V-1, META.json providing it
    d = copy()
    r = subprocess.run(release + [v, '--root', d], capture_output=True, text=True, env=env)
    if read(ROOT, f'bloomfilter--{v}.sql') is None:
        expect(f'release.py {v} refuses without bloomfilter--{v}.sql', r.returncode != 0 and 'base script' in r.stderr)
        with open(os.path.join(d, f'bloomfilter--{v}.sql'), 'w', encoding='utf-8') as f:
            f.write('-- stand-in for the base script\n')
        r = subprocess.run(release + [v, '--root', d], capture_output=True, text=True, env=env)
    expect(f'release.py {v} makes a released tree that agrees', r.returncode == 0 and not check(d))
    expect(f'... debian/changelog at {v}-1', debian_top(read(d, 'debian/changelog')) == f'{v}-1')
    top = changelog_top(read(d, 'CHANGELOG.md'))
    expect(f'... CHANGELOG.md dates {v}', top is not None and top[0] == v and top[1] != 'unreleased')
    with open(os.path.join(d, 'debian/changelog'), 'w', encoding='utf-8') as f:
        f.write(read(ROOT, 'debian/changelog'))
    expect('... and with debian/changelog left at the development entry, the check fails',
           any('debian/changelog' in p for p in check(d)))
    shutil.rmtree(d)
    return not failures


def main():
    if '--self-test' in sys.argv[1:] and not self_test():
        print('check-release: the self-test failed')
        return 1
    problems = check(ROOT)
    for p in problems:
        print(f'check-release: {p}')
    if problems:
        print('check-release: the versions disagree; scripts/release.py moves them together '
              '(CONTRIBUTING.md: Releasing)')
        return 1
    v = control_version(read(ROOT, 'bloomfilter.control'))
    print(f'check-release: bloomfilter.control, META.json, CHANGELOG.md, debian/changelog and the '
          f'clients agree on {v} ({changelog_top(read(ROOT, "CHANGELOG.md"))[1]}, '
          f'Debian {debian_top(read(ROOT, "debian/changelog"))})')
    return 0


if __name__ == '__main__':
    sys.exit(main())
