"""The release workflow, which cannot run here: checked with zizmor and the workflow schema, and read for the
steps each installer needs, in the order that works (the model before the bundle, the tests, the smoke
check and the MCP handshake before anything is shipped)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "build.yml"
MODEL_DIR = "models/multilingual-e5-small"
MODEL_INPUTS = ("packaging/models/build_default_model.py", "packaging/models/convert_e5.py")


def tool(name: str) -> str:
    """A command-line tool of the test extra, from this interpreter's environment first."""
    here = Path(sys.executable).parent
    for candidate in (here / name, here / f"{name}.exe", here / "Scripts" / f"{name}.exe"):
        if candidate.is_file():
            return str(candidate)
    found = shutil.which(name)
    assert found, f"{name} is not installed: pip install -e '.[test]' installs it"
    return found


def load(path: Path = WORKFLOW) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


@pytest.fixture(scope="module")
def workflow() -> dict:
    return load()


def step_text(step: dict) -> str:
    return " ".join(str(step.get(k, "")) for k in ("name", "uses", "run")) + " " + str(step.get("with", ""))


def script(name: str) -> str:
    return (ROOT / "packaging" / name).read_text(encoding="utf-8")


# What each step must do, recognised by what it runs; a step that runs a script counts for what the script does.
def builds_model(step):
    run = str(step.get("run", ""))
    return "build_default_model.py" in run or "make model" in run


def runs_tests(step):
    return bool(re.search(r"pytest|make test\b", str(step.get("run", ""))))


def bundles(step):
    run = str(step.get("run", ""))
    return "PyInstaller" in run or "make package" in run.replace("make package-test", "") or "build_dmg.sh" in run


def smokes(step):
    run = str(step.get("run", ""))
    return ("--smoke" in run or ("build_dmg.sh" in run and "--smoke" in script("macos/build_dmg.sh"))
            or ("package-test" in run and "--smoke" in script("package_test.sh")))


def handshakes(step):
    run = str(step.get("run", ""))
    return "mcp_handshake.py" in run or ("package-test" in run and "mcp_handshake.py" in script("package_test.sh"))


def compiles_iss(step):
    run = str(step.get("run", ""))
    return "ISCC" in run and "packaging/windows/limbic.iss" in run


def makes_dmg(step):
    return "build_dmg.sh" in str(step.get("run", "")) and "hdiutil create" in script("macos/build_dmg.sh")


def makes_deb(step):
    run = str(step.get("run", ""))
    return "make package" in run.replace("make package-test", "")


def installs_deb(step):
    return "package-test" in str(step.get("run", "")) and "apt-get install" in script("package_test.sh")


ORDER = {
    "linux": [("model", builds_model), ("tests", runs_tests), ("bundle", bundles), ("installer", makes_deb),
              ("smoke", smokes), ("handshake", handshakes), ("install", installs_deb)],
    "windows": [("model", builds_model), ("tests", runs_tests), ("bundle", bundles), ("smoke", smokes),
                ("handshake", handshakes), ("installer", compiles_iss)],
    "macos": [("model", builds_model), ("tests", runs_tests), ("bundle", bundles), ("smoke", smokes),
              ("installer", makes_dmg), ("handshake", handshakes)],
}


def first(steps: list[dict], what) -> int | None:
    return next((i for i, s in enumerate(steps) if what(s)), None)


def missing_or_misordered(job: dict, order) -> list[str]:
    """The named steps the job lacks or runs too early (each must come after the ones listed before it)."""
    steps = job.get("steps", [])
    problems, last = [], -1
    for name, what in order:
        at = first(steps, what)
        if at is None:
            problems.append(f"no {name} step")
        elif at < last:
            problems.append(f"the {name} step comes too early")
        else:
            last = at
    return problems


def test_zizmor_finds_nothing_offline():
    run = subprocess.run([tool("zizmor"), "--offline", "--no-progress", str(WORKFLOW)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_workflow_is_valid_against_the_github_workflow_schema():
    run = subprocess.run([tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", str(WORKFLOW)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_checks_fail_on_a_broken_workflow(tmp_path):
    """The two tools do catch what they are here for: an unpinned action, a job that is not a mapping."""
    broken = tmp_path / ".github" / "workflows" / "build.yml"
    broken.parent.mkdir(parents=True)
    text = WORKFLOW.read_text(encoding="utf-8")
    broken.write_text(re.sub(r"actions/checkout@[0-9a-f]{40}", "actions/checkout@main", text, count=1), encoding="utf-8")
    zizmor = subprocess.run([tool("zizmor"), "--offline", "--no-progress", str(broken)], capture_output=True, text=True)
    assert zizmor.returncode != 0 and "unpinned" in zizmor.stdout + zizmor.stderr
    broken.write_text(text.replace("  macos:\n", "  macos: 3\n  macos-broken:\n", 1), encoding="utf-8")
    schema = subprocess.run([tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", str(broken)],
                            capture_output=True, text=True)
    assert schema.returncode != 0


@pytest.mark.parametrize("job", sorted(ORDER))
def test_each_installer_job_builds_the_model_tests_bundles_smokes_and_handshakes_in_order(workflow, job):
    assert job in workflow["jobs"]
    assert missing_or_misordered(workflow["jobs"][job], ORDER[job]) == []


def test_a_job_without_the_model_build_is_caught(workflow):
    windows = dict(workflow["jobs"]["windows"])
    windows["steps"] = [s for s in windows["steps"] if not builds_model(s)]
    assert "no model step" in missing_or_misordered(windows, ORDER["windows"])
    macos = dict(workflow["jobs"]["macos"])
    steps = list(macos["steps"])
    model = first(steps, builds_model)
    steps.append(steps.pop(model))  # the model built after the bundle
    macos["steps"] = steps
    assert missing_or_misordered(macos, ORDER["macos"])


def test_the_tests_run_on_windows_latest_and_a_macos_runner(workflow):
    assert workflow["jobs"]["windows"]["runs-on"] == "windows-latest"
    assert str(workflow["jobs"]["macos"]["runs-on"]).startswith("macos-")
    for job in ("windows", "macos"):
        tests = next(s for s in workflow["jobs"][job]["steps"] if runs_tests(s))
        options = tests["run"].split("pytest", 1)[1]
        assert not re.search(r"(^|\s)(-m|-k|--deselect|--ignore)(\s|=|$)", options), \
            "the platform runs take the suite as it is; markers in the tests say what cannot run there, and why"


@pytest.mark.parametrize("job", sorted(ORDER))
def test_the_model_is_cached_by_its_recipe_but_never_for_a_release(workflow, job):
    steps = workflow["jobs"][job]["steps"]
    caches = [s for s in steps if str(s.get("uses", "")).startswith("actions/cache@")]
    assert len(caches) == 1
    cache = caches[0]
    assert cache["with"]["path"] in (MODEL_DIR, "${{ env.MODEL_DIR }}") and workflow["env"]["MODEL_DIR"] == MODEL_DIR
    key = cache["with"]["key"]
    assert "runner.os" in key and all(f"'{path}'" in key for path in MODEL_INPUTS), key
    assert "startsWith(github.ref, 'refs/tags/')" in cache["if"] and "!" in cache["if"]
    assert steps.index(cache) < first(steps, builds_model)


def test_every_action_is_pinned_to_a_commit(workflow):
    for name, job in workflow["jobs"].items():
        for step in job["steps"]:
            if "uses" in step:
                assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", step["uses"]), (name, step["uses"])


def test_permissions_are_least(workflow):
    assert workflow["permissions"] == {}
    for name, job in workflow["jobs"].items():
        expected = {"contents": "write"} if name == "release" else {"contents": "read"}
        assert job["permissions"] == expected, name
    release = workflow["jobs"]["release"]
    assert release["if"].replace(" ", "") == "${{startsWith(github.ref,'refs/tags/v')}}"
    assert set(release["needs"]) == {"linux", "windows", "macos"}


def test_signing_and_notarization_run_only_with_their_secrets(workflow):
    macos = workflow["jobs"]["macos"]
    steps = macos["steps"]
    sign = next(s for s in steps if "security import" in str(s.get("run", "")))
    notarize = next(s for s in steps if "notarytool submit" in str(s.get("run", "")))
    assert "secrets.MACOS_CERTIFICATE_P12" in macos["env"]["MACOS_SIGNING"]
    assert "secrets.APPLE_ID" in macos["env"]["MACOS_NOTARIZATION"]
    assert "env.MACOS_SIGNING == 'true'" in sign["if"]
    assert "env.MACOS_NOTARIZATION == 'true'" in notarize["if"]
    assert "stapler staple" in notarize["run"]
    assert "LIMBIC_CODESIGN_IDENTITY" in sign["run"] and "LIMBIC_CODESIGN_IDENTITY" in script("limbic.spec")
    dmg = first(steps, makes_dmg)
    assert steps.index(sign) < dmg < steps.index(notarize)


def test_the_windows_installer_brings_the_visual_cpp_runtime(workflow):
    steps = workflow["jobs"]["windows"]["steps"]
    fetch = next(s for s in steps if "vc_redist.x64.exe" in str(s.get("run", "")))
    assert "build/vc_redist.x64.exe" in fetch["run"] and "Get-AuthenticodeSignature" in fetch["run"]
    assert steps.index(fetch) < first(steps, compiles_iss)
    iss = script("windows/limbic.iss")
    assert r'"..\..\build\vc_redist.x64.exe"' in iss and "#error build\\vc_redist.x64.exe is missing" in iss
    runs = [line for line in iss.splitlines() if line.startswith('Filename: "{tmp}\\vc_redist.x64.exe"')]
    assert len(runs) == 2 and all("Check: VCRuntimeNeededFor" in line and "/install" in line for line in runs)
    assert "Check: VCRuntimeNeeded" in next(line for line in iss.splitlines() if "{#VCRedist}" in line)
    assert re.search(r"function VCRuntimeNeeded: Boolean;", iss)


def test_the_installed_windows_app_is_where_the_readme_points_assistants(workflow):
    iss = script("windows/limbic.iss")
    assert "DefaultDirName={autopf}\\Limbic" in iss and "PrivilegesRequired=admin" in iss
    install = next(s for s in workflow["jobs"]["windows"]["steps"] if "//VERYSILENT" in str(s.get("run", "")))
    assert 'DEST="/c/Program Files/Limbic"' in install["run"] and "mcp_handshake.py" in install["run"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert r'"C:\\Program Files\\Limbic\\limbic-cli.exe"' in readme


def test_the_readme_commands_for_linux_and_macos_are_where_the_installers_put_limbic(plan, build_deb):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    spec = script("limbic.spec")
    assert 'name="Limbic.app"' in spec and plan.APP_NAME == "limbic"
    assert '"/Applications/Limbic.app/Contents/MacOS/limbic"' in readme
    assert "/usr/bin" in script("build_deb.py") and build_deb.PACKAGE == "limbic"
    assert '"/usr/bin/limbic"' in readme


def test_fixtures_and_text_files_are_checked_out_with_lf_everywhere():
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.fail("the attributes are read with git, in a checkout")
    paths = ["tests/fixtures/vault_obsidian_tasks/LICENSE", "tests/engine/search_golden.json", "README.md",
             "x.ts", "packaging/package_test.sh", ".github/workflows/build.yml"]
    out = subprocess.run(["git", "check-attr", "eol", "--", *paths], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    eol = dict(line.rsplit(": eol: ", 1) for line in out.splitlines())
    assert eol == dict.fromkeys(paths, "lf"), eol
    binary = subprocess.run(["git", "check-attr", "text", "--", "docs/screenshots/search-light.png"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    assert binary.strip().endswith("unset")


# -- what the Windows and macOS runs leave out, and why -----------------------------------------------------


class _Item:
    def __init__(self, marker):
        self.nodeid, self.marker, self.added = "tests/x.py::test_x", marker, []

    def get_closest_marker(self, name):
        return self.marker if name == "posix_only" else None

    def add_marker(self, marker):
        self.added.append(marker)


@pytest.mark.parametrize("platform", ["win32", "linux", "darwin"])
def test_posix_only_tests_are_skipped_on_windows_only_and_say_why(monkeypatch, platform):
    from tests import conftest

    monkeypatch.setattr(conftest.sys, "platform", platform)
    marked = _Item(pytest.mark.posix_only(reason="named pipes are POSIX").mark)
    plain = _Item(None)
    conftest.pytest_collection_modifyitems(None, [marked, plain])
    assert plain.added == []
    if platform == "win32":
        assert [m.mark.kwargs["reason"] for m in marked.added] == ["POSIX only: named pipes are POSIX"]
    else:
        assert marked.added == []
    with pytest.raises(pytest.UsageError, match="needs the reason"):
        conftest.pytest_collection_modifyitems(None, [_Item(pytest.mark.posix_only.mark)])


def test_every_posix_only_mark_in_the_suite_gives_its_reason():
    marks = []
    for path in (ROOT / "tests").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        marks += [(path.name, m.group(0)) for m in re.finditer(r"mark\.posix_only\b(\([^)]*\))?", text)]
    assert marks, "no test is marked posix_only"
    assert [m for m in marks if not re.search(r"\(\s*reason=\"\w", m[1]) and m[0] != "test_workflow.py"] == []
    assert '"posix_only(reason):' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
