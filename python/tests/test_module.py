# The Python module npusim (python/npusim/__init__.py): runs, errors, the comparison rule.
# Run by ctest as python.module with Debian's python3 and PYTHONPATH=build/python.
import os

import numpy as np
import pytest
import npusim

SRC = os.environ.get("NPUSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SOFTMAX = os.path.join(SRC, "docs", "examples", "row_softmax.s")


def softmax_run(**kw):
    x = np.zeros((2, 16), np.float32)
    args = dict(inputs={"x": x}, outputs={"y": ("bf16", (2, 16))}, params={"rows": 2, "cols": 16})
    args.update(kw)
    return npusim.run(args.pop("kernel", SOFTMAX), **args)


def test_source_text_and_file_run_alike():
    # softmax of a zero row is 1/16 everywhere: exact in bf16 (0x3d80).
    from_file = softmax_run()
    from_text = softmax_run(kernel=open(SOFTMAX).read())
    assert np.all(from_file.outputs["y"] == np.float32(1 / 16))
    assert np.all(from_file.raw["y"] == 0x3D80)
    assert np.array_equal(from_text.raw["y"], from_file.raw["y"])
    assert from_text.cycles == from_file.cycles > 0
    assert from_file.dtypes == {"y": "bf16"}
    assert from_file.stats["npusim_run"]["config"].endswith("configs/ascend910b.yaml")


def test_iss_has_no_cycles_and_config_by_name():
    r = softmax_run(iss=True, config="tiny")
    assert r.cycles is None
    assert r.stats["npusim_run"]["mode"] == "iss"
    assert r.stats["npusim_run"]["config"].endswith("configs/tiny.yaml")


def test_set_overrides_reach_the_model():
    # A slower clock: the same cycles take longer (time_us = cycles / clock).
    slow = softmax_run(set={"chip.clock_ghz": 0.9})
    assert slow.stats["clock_ghz"] == 0.9
    assert slow.stats["time_us"] == pytest.approx(slow.cycles / 900.0)


def test_assembler_errors_are_located():
    bad = open(SOFTMAX).read().replace("vexp.f32  X32, X32, r6", "vexp.f32  X32, X32")
    with pytest.raises(npusim.Error) as e:
        softmax_run(kernel=bad)
    line = bad.splitlines().index("    vexp.f32  X32, X32") + 1
    assert "<kernel>:%d:" % line in str(e.value)


def test_binding_errors_name_the_argument():
    with pytest.raises(npusim.Error, match=r"npusim.run\(params\): error: params: missing value.*cols"):
        softmax_run(params={"rows": 2})
    with pytest.raises(npusim.Error, match=r"npusim.run\(outputs\['y'\]\): error: bad dtype 'bf17'"):
        softmax_run(outputs={"y": ("bf17", (2, 16))})
    with pytest.raises(npusim.Error, match=r"tensors.y.dtype: f32 does not match the kernel's '.param y, gm, bf16'"):
        softmax_run(outputs={"y": ("f32", (2, 16))})
    with pytest.raises(npusim.Error, match=r"npusim.run\(kernel\): error: cannot read 'nope.s'"):
        softmax_run(kernel="nope.s")
    with pytest.raises(npusim.Error, match=r"inputs\['x'\].*unsupported dtype '\|b1'"):
        softmax_run(inputs={"x": np.zeros((2, 16), bool)})


def test_bf16_inputs_as_bits_or_values():
    # 0x3f80 is bf16 1.0; as values, 1.0 + 2^-9 rounds RNE to 1.0: the same input either way.
    bits = np.full((2, 16), 0x3F80, np.uint16)
    vals = np.full((2, 16), 1 + 2.0 ** -9, np.float32)
    assert np.array_equal(softmax_run(inputs={"x": bits}).raw["y"], softmax_run(inputs={"x": vals}).raw["y"])


def test_compare_is_the_pypto_gym_rule():
    ref = np.ones(10, np.float32)
    out = ref.copy()
    out[0] = 1.1  # one bad element for atol 0.05, rtol 0
    assert npusim.compare(out, ref, 0.05, 0.0, 0.1)           # allowed round(0.1 * 10) = 1
    assert not npusim.compare(out, ref, 0.05, 0.0, 0.04)      # allowed round(0.4) = 0
    assert npusim.compare(out, ref, 0.0, 0.11, 0.0)           # 0.1 <= 0 + 0.11 * 1
    c = npusim.compare(out, ref, 0.05, 0.0, 0.0)
    assert (c.bad_count, c.first_bad, c.allowed_bad) == (1, 0, 0)
    assert c.max_abs_err == pytest.approx(0.1, rel=1e-6)
    out[0] = np.nan                                            # NaN where ref is finite fails
    assert not npusim.compare(out, ref, 1e9, 1e9, 1.0)
    assert npusim.default_tolerance("bf16") == (1e-4, 2.0 ** -7, 0.005)
    with pytest.raises(npusim.Error, match=r"out is \[3\] but ref is \[4\]"):
        npusim.compare(np.ones(3), np.ones(4), 0, 0, 0)


def test_docs_show_the_example_as_it_is():
    doc = open(os.path.join(SRC, "docs", "python.md")).read()
    block = doc.split("<!-- docs/examples/test_row_softmax.py -->\n```python\n", 1)[1].split("```", 1)[0]
    assert block == open(os.path.join(SRC, "docs", "examples", "test_row_softmax.py")).read()
    kernel = open(SOFTMAX).read()
    assert "```\n" + kernel + "```" in doc


def test_kernel_faults_name_the_source_line_and_macro_chain():
    # n = 2^20 elements read past the end of UB; the faulting vadds (pc 2) comes from macro
    # `bump` (line 5) invoked in `twice` (line 8), invoked at line 13.
    src = (".kernel k\n.param y, gm, f32\n.param n, int\n"
           ".macro bump N\n    vadds.f32 0, 0, r4, \\N\n.endm\n"
           ".macro twice N\n    bump \\N\n.endm\n"
           ".aiv\n    ldp r1, n\n    mov r4, f32(1.0)\n    twice r1\n    end\n")
    inv = src.splitlines().index("    twice r1") + 1
    assert inv == 13
    with pytest.raises(npusim.Error) as e:
        npusim.run(src, outputs={"y": ("f32", (64,))}, params={"n": 1 << 20}, iss=True)
    assert "pc 2 at <kernel>:5 (via <kernel>:8, <kernel>:%d) (vadds.f32" % inv in str(e.value)
    assert "GM tensors of the case" in str(e.value)
