#!/usr/bin/env python3
"""Check that every relative link in the Markdown documents resolves.

A link to a file must name a file of the tree; a link to an anchor
(file.md#anchor or #anchor) must name a heading of that file, slugged as
GitHub slugs headings.  Run by `make check-docs` (not part of make test).
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP = {'.git', 'node_modules', 'corpus'}
LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def anchors(path):
    seen = {}
    out = set()
    in_code = False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            in_code = not in_code
        if in_code:
            continue
        m = re.match(r'#{1,6}\s+(.*)', line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else '%s-%d' % (base, n))
    return out


def links(path):
    in_code = False
    for no, line in enumerate(open(path, encoding='utf-8'), 1):
        if line.startswith('```'):
            in_code = not in_code
        if not in_code:
            for m in LINK.finditer(line):
                yield no, m.group(1)


def main():
    bad = 0
    docs = []
    for d, dirs, files in os.walk(ROOT):
        dirs[:] = [x for x in dirs if x not in SKIP]
        docs += [os.path.join(d, f) for f in files if f.endswith('.md')]
    for doc in sorted(docs):
        for no, target in links(doc):
            if re.match(r'[a-z]+:', target):
                continue
            file, _, anchor = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(doc), file)) if file else doc
            rel = os.path.relpath(doc, ROOT)
            if not os.path.exists(dest):
                print('%s:%d: no such file: %s' % (rel, no, target))
                bad += 1
            elif anchor and dest.endswith('.md') and anchor not in anchors(dest):
                print('%s:%d: no such anchor: %s' % (rel, no, target))
                bad += 1
    print('check-docs: %d Markdown files, %d broken links' % (len(docs), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
