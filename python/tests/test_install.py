# `cmake --install` into a temporary prefix, then the installed npusim and Python module run from
# outside any source or build tree, finding their default config in PREFIX/share/npusim (ctest
# python.install; README "Install").
import json
import os
import subprocess
import sys


def test_installed_npusim_and_module_find_their_data(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run([os.environ["NPUSIM_CMAKE_COMMAND"], "--install", os.environ["NPUSIM_BINARY_DIR"],
                    "--prefix", str(prefix)], check=True, capture_output=True)
    data = prefix / "share" / "npusim"
    for d in ("configs/ascend910b.yaml", "kernels/cases/rmsnorm_bf16.yaml", "calibration", "docs/python.md"):
        assert (data / d).exists(), d
    env = {k: v for k, v in os.environ.items() if not k.startswith("NPUSIM_") and k != "PYTHONPATH"}
    work = tmp_path / "work"  # not inside the prefix, the sources or the build
    work.mkdir()

    # The installed npusim: no --config, no NPUSIM_CONFIG.
    out = work / "out"
    r = subprocess.run([str(prefix / "bin" / "npusim"), "run", str(data / "kernels/cases/rmsnorm_bf16.yaml"),
                        "--iss", "-q", "--out", str(out)], cwd=work, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    stats = json.loads((out / "stats.json").read_text())
    assert stats["npusim_run"]["config"] == str(data / "configs" / "ascend910b.yaml")
    assert stats["numerics"]["verdict"] == "PASS"

    # The installed module, from the prefix's site directory.
    env["PYTHONPATH"] = str(prefix / "lib" / "python3" / "dist-packages")
    code = ("import numpy as np, npusim, json\n"
            "r = npusim.run(%r, inputs={'x': np.zeros((2, 16), np.float32)}, outputs={'y': ('bf16', (2, 16))},"
            " params={'rows': 2, 'cols': 16})\n"
            "print(json.dumps([npusim.__file__, r.stats['npusim_run']['config'], int(r.raw['y'][0, 0])]))\n"
            % str(data / "docs" / "examples" / "row_softmax.s"))
    r = subprocess.run([sys.executable, "-c", code], cwd=work, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    module_file, config, y00 = json.loads(r.stdout)
    assert module_file.startswith(str(prefix))
    assert config == str(data / "configs" / "ascend910b.yaml")
    assert y00 == 0x3D80  # bf16 1/16: softmax of a zero row of 16
