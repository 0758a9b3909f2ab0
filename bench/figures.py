#!/usr/bin/env python3
"""README's Figures, bench/RESULTS.md's section of a release and
bench/figures.svg, written from one `make bench` run's results.

    figures.py [--readme README.md] [--results bench/RESULTS.md]
               [--chart bench/figures.svg] FIGURES.tsv
    figures.py --self-test

FIGURES.tsv is what bench/bench.sh collects: META lines (release, commit,
date, cores, memory, postgres, rounds) and FIGURE lines, as
bench/figure.sh writes them.  The README's part between the markers
<!-- figures:begin --> and <!-- figures:end --> is replaced; RESULTS gets
the same table as its newest section, or in place of the section of the
same release; the chart draws each measure against its baseline with
gnuplot (Debian's gnuplot-nox).  Python's standard library only.
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
BEGIN, END = '<!-- figures:begin -->', '<!-- figures:end -->'
FIELDS = ('key', 'measure', 'value', 'unit', 'baseline', 'base', 'target', 'settings')
LESS_IS_BETTER = {'s', 'ms', 'ns', 'bytes', 'fraction', 'count'}
UNITS = LESS_IS_BETTER | {'tps', 'checks/s'}
META = ('release', 'commit', 'date', 'cores', 'memory', 'postgres', 'rounds')
MARKS = '†‡§¶'


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def read(path):
    """META as a dict and the FIGURE lines as dicts, in the run's order."""
    meta, rows, keys = {}, [], set()
    for no, line in enumerate(open(path, encoding='utf-8'), 1):
        cells = line.rstrip('\n').split('\t')
        if cells[0] == 'META' and len(cells) == 3:
            meta[cells[1]] = cells[2]
        elif cells[0] == 'FIGURE' and len(cells) == 1 + len(FIELDS):
            row = dict(zip(FIELDS, cells[1:]))
            if row['key'] in keys or row['unit'] not in UNITS:
                sys.exit('%s:%d: key used twice or unit unknown: %s' % (path, no, line.strip()))
            keys.add(row['key'])
            rows.append(row)
        elif line.strip():
            sys.exit('%s:%d: neither a META nor a FIGURE line' % (path, no))
    missing = [m for m in META if m not in meta]
    if missing or not rows:
        sys.exit('%s: no %s' % (path, ', '.join(missing) or 'FIGURE lines'))
    return meta, rows


def show(value, unit):
    """A value as the table writes it; what is not a number, as it is."""
    m = re.match(r'^([<>]=? *)?(-?[0-9.]+(?:[eE][-+]?[0-9]+)?)$', value.strip())
    if not m:
        return value
    prefix, v = m.group(1) or '', float(m.group(2))
    if unit == 's':
        text = '%.3f s' % v
    elif unit == 'ms':
        text = '%.3f ms' % v if v < 1 else '%.2f ms' % v if v < 10 else '{:,.0f} ms'.format(v)
    elif unit == 'ns':
        text = '%.1f us' % (v / 1000) if v >= 1000 else '%.0f ns' % v
    elif unit == 'bytes':
        for size, name in ((1e9, 'GB'), (1e6, 'MB'), (1e3, 'kB')):
            if v >= size:
                # three figures, keeping a trailing zero (12.0) but no
                # bare point (225, not "225.")
                text = '%s %s' % (('%#.3g' % (v / size)).rstrip('.'), name)
                break
        else:
            text = '%d bytes' % v
    elif unit == 'fraction':
        text = '%.3f%%' % (v * 100)
    else:
        text = '{:,.0f}'.format(v)
    return prefix + text


def ratio(row):
    """result / baseline, or None when either is not a number."""
    v, b = number(row['value']), number(row['base'])
    return v / b if v is not None and b else None


def show_ratio(r):
    return '1/%.1f' % (1 / r) if 0 < r < 0.1 else '%.2f' % r


def met(row):
    """The target as written, and whether the run meets it."""
    m = re.match(r'^(<=|>=)? *([0-9.]+)(?:/([0-9.]+))?$', row['target'])
    r, v = ratio(row), number(row['value'])
    got = r if row['base'] else v
    if not m or got is None:
        return row['target']
    bound = float(m.group(2)) / float(m.group(3) or 1)
    ok = {'<=': got <= bound, '>=': got >= bound, None: got == bound}[m.group(1)]
    return '%s (%s)' % (row['target'], 'met' if ok else 'missed')


def settings_marks(rows):
    """Each distinct non-default setting of the run, with its mark."""
    marks = {}
    for row in rows:
        if row['settings'] and row['settings'] not in marks:
            marks[row['settings']] = MARKS[len(marks)]
    return marks


def table(rows):
    marks = settings_marks(rows)
    out = ['| measure | result | baseline | ratio | target |',
           '|---|---:|---|---:|---|']
    for row in rows:
        mark = ' ' + marks[row['settings']] if row['settings'] else ''
        base = ' '.join(x for x in (row['baseline'], show(row['base'], row['unit'])) if x)
        r = ratio(row)
        out.append('| %s%s | %s | %s | %s | %s |' % (
            row['measure'], mark, show(row['value'], row['unit']), base,
            show_ratio(r) if r is not None else '', met(row)))
    return out


def intro(meta, rows):
    marks = settings_marks(rows)
    settings = ''.join(
        ' Rows marked %s ran with `%s`, so that the tables stay in memory'
        ' (those measure CPU, not disk).' % (mark, s.replace(' ', '`, `'))
        for s, mark in marks.items())
    return ('Release %(release)s, `make bench` of %(date)s (commit %(commit)s), one run on'
            ' %(cores)s cores and %(memory)s, PostgreSQL %(postgres)s. Each script ran in'
            ' a throwaway cluster of Debian\'s default settings.' % meta + settings +
            ' A result and its baseline are timed in the same interleaved rounds, the best'
            ' of %(rounds)s; ratio = result / baseline.' % meta)


def results_heading(meta):
    return '## Release %s: `make bench`' % meta['release']


def anchor(heading):
    """GitHub's anchor of a heading (as scripts/check-docs.py slugs it)."""
    s = re.sub(r'[^\w\- ]', '', heading.lstrip('#').strip().lower())
    return s.replace(' ', '-')


def readme_part(meta, rows, chart):
    link = 'bench/RESULTS.md#' + anchor(results_heading(meta))
    return [BEGIN, '', intro(meta, rows) + ' The same table is [in bench/RESULTS.md](%s),'
            ' with every earlier release\'s figures.' % link, '',
            '![Each measure against its baseline: right of 1 is better](%s)' % chart, '',
            'The chart draws each ratio as times better than the baseline: baseline / result'
            ' for times and sizes, result / baseline for rates.', ''] + table(rows) + ['', END]


def results_part(meta, rows):
    begin = '<!-- figures %s:begin -->' % meta['release']
    end = '<!-- figures %s:end -->' % meta['release']
    return begin, end, [begin, results_heading(meta), '', intro(meta, rows) +
                        ' Written by bench/figures.py from bench/figures.tsv; the next'
                        ' `make bench` of this release replaces it.', ''] + table(rows) + [end]


def replace_between(lines, begin, end, part):
    """lines with part in place of begin .. end, or None without them."""
    if lines.count(begin) != 1 or lines.count(end) != 1 or lines.index(begin) > lines.index(end):
        return None
    return lines[:lines.index(begin)] + part + lines[lines.index(end) + 1:]


def write(path, lines):
    tmp = pathlib.Path(str(path) + '.new')
    tmp.write_text('\n'.join(lines), encoding='utf-8')
    tmp.replace(path)


def rewrite_readme(path, meta, rows, chart):
    lines = pathlib.Path(path).read_text(encoding='utf-8').split('\n')
    new = replace_between(lines, BEGIN, END, readme_part(meta, rows, chart))
    if new is None:
        sys.exit('%s: no one %s ... %s pair' % (path, BEGIN, END))
    write(path, new)


def rewrite_results(path, meta, rows):
    lines = pathlib.Path(path).read_text(encoding='utf-8').split('\n')
    begin, end, part = results_part(meta, rows)
    new = replace_between(lines, begin, end, part)
    if new is None:	# the newest section, after the title line
        title = 1 if lines and lines[0].startswith('# ') else 0
        new = lines[:title] + [''] + part + lines[title:]
    write(path, new)


def gnuplot_quote(text):
    return "'" + text.replace("'", "''") + "'"


def chart_script(meta, rows, output):
    """The gnuplot script of the chart: one bar a row with a number and a
    baseline, from 1 to the speed-up (baseline / result where less is
    better, result / baseline where more is), on a log scale."""
    bars = []
    for row in rows:
        r = ratio(row)
        if r is None or r <= 0:
            continue
        up = 1 / r if row['unit'] in LESS_IS_BETTER else r
        label = '%s against %s' % (row['measure'], row['baseline'])
        bars.append((label.replace('`', ''), up))
    lo = min([0.5] + [u for _, u in bars]) / 2.5
    hi = max([2.0] + [u for _, u in bars]) * 2.5
    # the rows' names as labels, not tic labels (which are formats, and cut)
    out = ["set terminal svg size 1300,%d dynamic noenhanced font 'sans,11' background '#ffffff'"
           % (100 + 22 * len(bars)),
           'set output %s' % gnuplot_quote(output),
           'set label 1 %s at screen 0.01, screen 0.985 left front' % gnuplot_quote(
               'bloomfilter %(release)s, make bench of %(date)s: each measure against its baseline'
               % meta),
           "set label 2 'times better than the baseline (faster or smaller); right of 1 is better'"
           ' at screen 0.99, screen 0.02 right', 'set bmargin 4',
           'set logscale x 2', 'set xrange [%g:%g]' % (lo, hi),
           'set yrange [%g:-0.6]' % (len(bars) - 0.4), 'set grid xtics', 'unset key',
           'set lmargin %d' % (max(len(label) for label, _ in bars) + 3), 'set tmargin 2', 'set rmargin 6',
           'set border 1', 'set xtics nomirror', 'unset ytics',
           'set arrow from 1, graph 0 to 1, graph 1 nohead lw 2 lc rgb "#333333"']
    for i, (label, up) in enumerate(bars):
        out.append('set label %d %s at graph 0, first %d right offset -1, 0' % (
            2 * i + 3, gnuplot_quote(label), i))
        out.append('set label %d %s at %g, %d %s offset %s, 0' % (
            2 * i + 4, gnuplot_quote('%.2fx' % up), up, i,
            'left' if up >= 1 else 'right', '0.5' if up >= 1 else '-0.5'))
    out.append('$bars << EOD')
    for i, (_, up) in enumerate(bars):
        out.append('%g %d %g %g %g %g %d' % (
            up, i, min(1, up), max(1, up), i - 0.35, i + 0.35,
            0x4a9a4a if up >= 1 else 0xc0504d))
    out += ['EOD', 'plot $bars using 1:2:3:4:5:6:7 with boxxyerror fs solid 0.85 noborder lc rgb variable']
    return '\n'.join(out) + '\n'


def draw(meta, rows, output):
    if shutil.which('gnuplot') is None:
        sys.exit('figures.py: no gnuplot (apt-get install gnuplot-nox)')
    with tempfile.NamedTemporaryFile('w', suffix='.gp', delete=False) as f:
        f.write(chart_script(meta, rows, output))
    try:
        subprocess.run(['gnuplot', f.name], check=True)
    finally:
        os.unlink(f.name)


def self_test():
    """Rewrite a sample README and RESULTS from bench/figures.sample.tsv:
    every row, the markers kept, the text around them untouched, the same
    bytes a second time, one RESULTS section a release."""
    meta, rows = read(HERE / 'figures.sample.tsv')
    with tempfile.TemporaryDirectory() as d:
        readme, results = pathlib.Path(d, 'README.md'), pathlib.Path(d, 'RESULTS.md')
        readme.write_text('# x\n\n## Figures\n\n%s\nold rows\n%s\n\nafter\n' % (BEGIN, END))
        results.write_text('# Benchmark results\n\n## Older\n\nkept\n')
        for _ in range(2):
            rewrite_readme(readme, meta, rows, 'bench/figures.svg')
            rewrite_results(results, meta, rows)
            if _ == 0:
                first = readme.read_text(), results.read_text()
        text, res = readme.read_text(), results.read_text()
        assert (text, res) == first, 'not idempotent'
        assert text.count(BEGIN) == text.count(END) == 1 and 'old rows' not in text
        assert text.startswith('# x\n\n## Figures\n\n') and text.endswith('\n\nafter\n')
        for row in rows:
            assert '| %s' % row['measure'] in text and '| %s' % row['measure'] in res, row['key']
        assert len(re.findall(r'^\| .* \|$', text, re.M)) == len(rows) + 1
        assert ' †' in text and 'not measured' in text and 'Release %s' % meta['release'] in text
        assert res.count(results_heading(meta)) == 1 and res.endswith('## Older\n\nkept\n')
        rewrite_results(results, dict(meta, release='9.9'), rows)
        res = results.read_text()
        assert res.index('Release 9.9') < res.index(results_heading(meta)) < res.index('## Older')
    assert show('0.00902', 'fraction') == '0.902%' and show('12676720', 'bytes') == '12.7 MB'
    assert show('11985030', 'bytes') == '12.0 MB' and show('127487', 'ms') == '127,487 ms'
    assert show('224641024', 'bytes') == '225 MB'
    assert show('> 900', 's') == '> 900.000 s' and show('not measured: x', 'tps') == 'not measured: x'
    assert show_ratio(12676720 / 224641024) == '1/17.7'
    assert met(dict(value='2', base='1', target='<= 1.5')) == '<= 1.5 (missed)'
    assert met(dict(value='0', base='', target='0')) == '0 (met)'
    script = chart_script(meta, rows, 'x.svg')
    charted = [r for r in rows if ratio(r)]
    assert len(re.findall(r"^set label \d+ '[0-9.]+x'", script, re.M)) == len(charted)
    assert len(re.findall(r"^set label \d+ '.* against .*' at graph", script, re.M)) == len(charted)
    print('figures.py: self-test passed (%d rows)' % len(rows))
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('figures', nargs='?', help='the run\'s results (bench/figures.tsv)')
    p.add_argument('--readme', default=str(HERE.parent / 'README.md'))
    p.add_argument('--results', default=str(HERE / 'RESULTS.md'))
    p.add_argument('--chart', default=str(HERE / 'figures.svg'))
    p.add_argument('--self-test', action='store_true')
    args = p.parse_args()
    if args.self_test:
        return self_test()
    if not args.figures:
        p.error('name the results file (bench/figures.tsv)')
    meta, rows = read(args.figures)
    chart = os.path.relpath(args.chart, os.path.dirname(os.path.abspath(args.readme)))
    rewrite_readme(args.readme, meta, rows, chart)
    rewrite_results(args.results, meta, rows)
    draw(meta, rows, args.chart)
    return 0


if __name__ == '__main__':
    sys.exit(main())
