# A user kernel (row_softmax.s) checked against a numpy golden with the pypto-gym rule
# (docs/python.md; run by ctest as python.row_softmax).
import os

import numpy as np
import npusim

HERE = os.path.dirname(os.path.abspath(__file__))


def bf16_exact(a):
    """float32 values that bf16 holds exactly (the low 16 bits cleared)."""
    return (a.astype(np.float32).view(np.uint32) & 0xFFFF0000).view(np.float32)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_row_softmax_matches_numpy():
    rows, cols = 16, 256
    x = bf16_exact(np.random.default_rng(1).normal(0, 2, (rows, cols)))
    r = npusim.run(os.path.join(HERE, "row_softmax.s"), inputs={"x": x},
                   outputs={"y": ("bf16", (rows, cols))}, params={"rows": rows, "cols": cols},
                   config="ascend910b")
    y = r.outputs["y"]                    # float32 view of the bf16 result
    assert r.raw["y"].dtype == np.uint16  # its bits
    assert np.array_equal(r.raw["y"].astype(np.uint32) << 16, y.view(np.uint32))
    ref = softmax(x.astype(np.float64))
    verdict = npusim.compare(y, ref, *npusim.default_tolerance("bf16"))
    assert verdict, verdict.summary
    assert r.cycles > 0 and r.stats["numerics"]["verdict"] == "NOT CHECKED"


def test_a_wrong_kernel_fails_the_comparison():
    rows, cols = 16, 256
    x = bf16_exact(np.random.default_rng(1).normal(0, 2, (rows, cols)))
    r = npusim.run(os.path.join(HERE, "row_softmax.s"), inputs={"x": x},
                   outputs={"y": ("bf16", (rows, cols))}, params={"rows": rows, "cols": cols})
    wrong = softmax(x.astype(np.float64) * 1.1)  # not the function the kernel computes
    assert not npusim.compare(r.outputs["y"], wrong, *npusim.default_tolerance("bf16"))
