#!/usr/bin/env python3
"""Write the one table of what each client reads: clients/README.md.

The layouts each client reads, checks, counts and adds to, and the key
types each reads from text as the server's input function does.  The key
types come from test/vectors/keys.json, which the server writes from the
core's key-type table (src/core/keytypes.c, `make vectors`), so a key type
added there reaches this table at the next `make vectors`; the layouts
are listed below, as each client's README says and its tests hold.

  scripts/clients_table.py           rewrite the table in clients/README.md
  scripts/clients_table.py --check   exit 1 if the table there is stale
                                     (make check-docs, part of make test)
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VECTORS = os.path.join(ROOT, 'test', 'vectors', 'keys.json')
README = os.path.join(ROOT, 'clients', 'README.md')
BEGIN = '<!-- clients-table:begin (scripts/clients_table.py writes this; do not edit) -->'
END = '<!-- clients-table:end -->'
CLIENTS = ('python', 'java', 'rust')

# (value, what the server makes it with, the key types it holds, the
# clients that read, check, count and add to it)
LAYOUTS = [
    ('bloomfilter layout 1, plain (`blocked512`)', '`bf_create(n, p)`, `bf_agg(x, n, p)`', 'every key type', CLIENTS),
    ('bloomfilter layout 2, counting', '`bf_create(n, p, counting => true)`', 'every key type', CLIENTS),
    ('bloomfilter layout 3, scalable', '`bf_create(n, p, expansion => e)`, `bf_agg(x)`', 'every key type', CLIENTS),
    ('bloomfilter layout 4, list of hashes', "an unsized `bf_agg(x)`'s partial state", 'every key type', CLIENTS),
    ('bloomfilter layout 5, Guava', "`bf_create(n, p, layout => 'guava', key_type => t)`, `bf_from_guava`", '`bigint`, `integer`, `text`, `bytea`', CLIENTS),
    ('bloomfilter layout 6, RedisBloom', "`bf_create(n, p, layout => 'redisbloom')`, `bf_from_redisbloom`", 'integers, `text`, `bytea`', CLIENTS),
    ('cuckoofilter', '`cf_create(n)`, `cf_agg(x)`', 'every key type', CLIENTS),
]
# the clients that check an array key (of the element types they read)
ARRAYS = ('python',)


def mark(yes):
    return 'yes' if yes else '-'


def table():
    keys = json.load(open(VECTORS, encoding='utf-8'))['key_types']
    out = ['| value | made by | keys | Python | Java | Rust |', '|---|---|---|:-:|:-:|:-:|']
    for name, made, held, clients in LAYOUTS:
        out.append('| %s | %s | %s | %s |' % (name, made, held,
                                             ' | '.join(mark(c in clients) for c in CLIENTS)))
    out += ['', '| key type | Python | Java | Rust |', '|---|:-:|:-:|:-:|']
    for k in keys:
        if k['array_only']:
            continue
        name = '"char"' if k['name'] == 'char' else k['name']
        out.append('| `%s` | %s |' % (name, ' | '.join(mark(c in k['clients']) for c in CLIENTS)))
    out.append('| arrays of the above | %s |' % ' | '.join(mark(c in ARRAYS) for c in CLIENTS))
    return '\n'.join(out)


def rewrite(text):
    try:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
    except ValueError:
        sys.exit('clients_table: %s lacks the markers %s ... %s' % (README, BEGIN, END))
    return head + BEGIN + '\n' + table() + '\n' + END + tail


def main():
    old = open(README, encoding='utf-8').read()
    new = rewrite(old)
    if '--check' in sys.argv[1:]:
        if new != old:
            sys.exit('clients_table: the table in clients/README.md is stale: run scripts/clients_table.py')
        print('clients_table: clients/README.md is current')
        return
    if new != old:
        open(README, 'w', encoding='utf-8').write(new)
    print('clients_table: wrote clients/README.md')


if __name__ == '__main__':
    main()
