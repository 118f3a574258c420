"""lightrail.__version__, source_hash and regmap_version say what the
driver was built as: the project's version in CMakeLists.txt, the source
commit the build was configured from, the register map of
defs/regmap.json."""

import json
import os
import re

import lightrail
from conftest import ROOT


def test_version_is_the_projects():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        project = re.search(r"project\(lightrail VERSION ([0-9.]+)", f.read())
    assert project, "no project(lightrail VERSION ...) in CMakeLists.txt"
    assert lightrail.__version__ == project.group(1)


def test_regmap_version_is_the_register_maps():
    with open(os.path.join(ROOT, "defs", "regmap.json")) as f:
        assert lightrail.regmap_version == json.load(f)["regmap_version"]


def test_source_hash_is_the_builds():
    # The commit the build was configured from (CMake passes it; a commit
    # since then re-runs the configure at the next build).
    assert re.fullmatch(r"[0-9a-f]{16}", lightrail.source_hash)
    assert lightrail.source_hash == os.environ["LIGHTRAIL_SOURCE_HASH"]
