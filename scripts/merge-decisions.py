#!/usr/bin/env python3
"""Merges the per-area decision notes in docs/decisions/*.md into docs/decisions.md.

Each area file starts with a `# Title` line; it becomes a `## Title` section and its `##` entries
become `###`. The area files are removed once merged (docs/decisions.md is the one record).
"""
import pathlib
import re

root = pathlib.Path(__file__).resolve().parent.parent
target = root / 'docs' / 'decisions.md'
folder = root / 'docs' / 'decisions'
text = target.read_text()
for path in sorted(folder.glob('*.md')):
    body = path.read_text().strip('\n')
    body = re.sub(r'^(#+) ', lambda m: '#' + m.group(1) + ' ', body, flags=re.M)
    text = text.rstrip('\n') + '\n\n' + body + '\n'
    path.unlink()
target.write_text(text)
if not any(folder.iterdir()):
    folder.rmdir()
