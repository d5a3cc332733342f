#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The reStructuredText under Documentation/scheduler/ that multisched adds
# parses without errors or warnings (docutils, with the Sphinx :doc: role
# and toctree directive stubbed, since a full htmldocs build is too slow).
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

for f in "$MS_TOP"/Documentation/scheduler/sched-*.rst; do
	name=${f#"$MS_TOP"/}
	if out=$(python3 - "$f" 2>&1 <<'PY'
import sys
import docutils.core
from docutils import nodes
from docutils.parsers.rst import Directive, directives, roles

roles.register_local_role(
    "doc", lambda name, raw, text, line, inliner, options={}, content=[]:
    ([nodes.literal(raw, text)], []))


class TocTree(Directive):
    has_content = True
    option_spec = {"maxdepth": directives.unchanged}

    def run(self):
        return []


directives.register_directive("toctree", TocTree)
path = sys.argv[1]
docutils.core.publish_doctree(
    open(path).read(), source_path=path,
    settings_overrides={"report_level": 2, "halt_level": 2})
PY
	); then
		echo "ok - docs: $name parses cleanly"
	else
		echo "not ok - docs: $name parses cleanly"
		echo "$out" | sed 's/^/# /' | head -n 10
	fi
done
