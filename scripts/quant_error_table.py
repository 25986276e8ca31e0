#!/usr/bin/python3
"""Accuracy of the decode layer in bf16, W8A8 and MXFP8 against an fp64 reference of the
unquantised product (docs/quant.md, "bf16 vs W8A8 vs MXFP8").

One draw of x ~ U(-1, 1) [M, K] and W ~ U(-0.1, 0.1) [N, K] in fp64 (numpy, seed 1) is the
unquantised layer; ref = x . W^T in fp64. Each kernel then gets the inputs its format needs,
made here by the rules of docs/numerics.md, as .npy files of a scratch copy of its shipped case:
  linear        x, W rounded to bf16 (by npusim's RNE on reading <f4 values)
  linear_w8a8   x per token and W per channel: AT-05 in fp32 (q = sat(rne(v * 127 / amax)),
                scale = 1 / (127 / amax)); the kernel does the int8 matmul and AT-06
  linear_mxfp8  x in bf16 (the kernel quantises it on the AIVs), W as MXFP8: E8M0 scale
                2^(floor(log2 amax) - 8) per 32 along K, elements W / scale clamped to +-448
                (npusim rounds them RNE to e4m3 on reading; the clamp first is the saturating
                cast), both paths
  rmsnorm_linear, rmsnorm_linear_quant (AT-10 / AT-11)  the same x and W (bf16; int8 W per channel
                as above) behind an RMSNorm with gamma ~ U(-1, 1) (eps 1e-6), against the fp64
                RMSNorm + product; AT-11 quantises the normalised x per token itself
runs each with `npusim run --out` on configs/ascend950.yaml (block_dim 36) and prints, per kernel,
the max and mean relative error of y against ref (|y - ref| / max|ref|) and the cycles.

Usage: /usr/bin/python3 scripts/quant_error_table.py [build/bin/npusim]
(Debian's python3 with python3-numpy; run from the repository root.)
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

M, K, N = 16, 4096, 1536
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def per_row_int8(v):
    v32 = v.astype(np.float32)
    amax = np.max(np.abs(v32), axis=1).astype(np.float32)
    scale_q = (np.float32(127) / amax).astype(np.float32)
    q = np.clip(np.rint((v32 * scale_q[:, None]).astype(np.float32)), -128, 127)
    return q.astype(np.int8), (np.float32(1) / scale_q).astype(np.float32)


def mx_weights(w):
    blocks = w.reshape(N, K // 32, 32)
    amax = np.max(np.abs(blocks), axis=2)
    shared = np.maximum(np.floor(np.log2(amax)) - 8, -127)
    scale = np.exp2(shared)
    elems = np.clip(blocks / scale[:, :, None], -448, 448).reshape(N, K)
    return elems.astype(np.float32), scale.astype(np.float32)


def run(npusim, case, files, extra_vars, out):
    text = open(os.path.join(ROOT, "kernels", "cases", case + ".yaml")).read()
    text = text.replace("kernel: ../", "kernel: " + os.path.join(ROOT, "kernels") + "/")
    text = text.replace("block_dim: 24", "block_dim: 36")
    lines, skipping = [], 0
    for line in text.splitlines():
        if skipping > 0:  # the rest of a replaced multi-line tensor entry
            skipping += line.count("{") - line.count("}")
            continue
        name = line.strip().split(":")[0]
        if name in files and "init:" in line:
            head = line[: line.index("init:")]
            skipping = line.count("{") - line.count("}")
            line = head + "init: {file: %s}}" % files[name]
        lines.append(line)
    path = os.path.join(out, case + ".yaml")
    open(path, "w").write("\n".join(lines) + "\n")
    cmd = [npusim, "run", path, "--config", os.path.join(ROOT, "configs", "ascend950.yaml"), "--out",
           os.path.join(out, "run_" + case + "".join(extra_vars))]
    for v in extra_vars:
        cmd += ["--var", v]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    d = cmd[-1 - 2 * len(extra_vars)]
    y = np.load(os.path.join(d, "y.npy")).astype(np.float64)
    stats = json.load(open(os.path.join(d, "stats.json")))
    return y, stats


def main():
    npusim = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin", "npusim")
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (M, K))
    w = rng.uniform(-0.1, 0.1, (N, K))
    ref = x @ w.T
    # AT-10 / AT-11: the same layer behind an RMSNorm with gamma (eps 1e-6), in fp64
    gamma = rng.uniform(-1, 1, K)
    normed = x / np.sqrt(np.mean(x * x, axis=1, keepdims=True) + 1e-6) * gamma
    ref_norm = normed @ w.T
    with tempfile.TemporaryDirectory() as out:
        def save(name, a):
            p = os.path.join(out, name + ".npy")
            np.save(p, a)
            return p
        xq, xs = per_row_int8(x)
        wq, wsc = per_row_int8(w)
        we, wes = mx_weights(w)
        runs = [
            ("linear (bf16)", "linear_bf16", {"x": save("x", x.astype(np.float32)), "w": save("w", w.astype(np.float32))}, []),
            ("linear_w8a8", "linear_w8a8", {"x": save("xq", xq), "x_scale": save("xs", xs), "w": save("wq", wq),
                                            "w_scale": save("wsc", wsc)}, []),
            ("linear_mxfp8 (GM)", "linear_mxfp8", {"x": save("x", x.astype(np.float32)), "w": save("we", we),
                                                   "ws": save("wes", wes)}, []),
            ("linear_mxfp8 (UB -> L1)", "linear_mxfp8", {"x": save("x", x.astype(np.float32)), "w": save("we", we),
                                                         "ws": save("wes", wes)}, ["VIA_L1=1"]),
        ]
        norm_runs = [
            ("rmsnorm_linear (AT-10, bf16)", "rmsnorm_linear", {"x": save("x", x.astype(np.float32)),
                                                                "gamma": save("g", gamma.astype(np.float32)),
                                                                "w": save("w", w.astype(np.float32))}, []),
            ("rmsnorm_linear_quant (AT-11)", "rmsnorm_linear_quant", {"x": save("x", x.astype(np.float32)),
                                                                      "gamma": save("g", gamma.astype(np.float32)),
                                                                      "w": save("wq", wq), "w_scale": save("wsc", wsc)}, []),
        ]
        print("| kernel | max rel. error | mean rel. error | cycles |")
        print("|---|---|---|---|")
        for (label, case, files, extra), r in [(e, ref) for e in runs] + [(e, ref_norm) for e in norm_runs]:
            y, stats = run(npusim, case, files, extra, out)
            err = np.abs(y - r) / np.max(np.abs(r))
            cycles = stats["total_cycles"]
            print("| %s | %.2e | %.2e | %s |" % (label, err.max(), err.mean(), cycles))


if __name__ == "__main__":
    main()
