"""npusim from Python: run a kernel on numpy arrays and check it against a numpy golden.

    import numpy as np, npusim
    x = np.random.default_rng(0).uniform(-1, 1, (16, 256)).astype(np.float32)
    r = npusim.run("row_softmax.s", inputs={"x": x}, outputs={"y": ("bf16", x.shape)},
                   params={"rows": 16, "cols": 256})
    ok = npusim.compare(r.outputs["y"], ref, *npusim.default_tolerance("bf16"))

A run goes through the same job as `npusim run` (the case is built from the arguments instead of
read from a file): the same checks, the same simulation, the same statistics (docs/python.md).
Errors raise npusim.Error (a RuntimeError) with the CLI's located message.
"""
import json

import numpy as np

from ._npusim import Error  # noqa: F401  (re-exported: the exception of every call)
from . import _npusim

__all__ = ["run", "run_case", "compare", "default_tolerance", "Result", "Comparison", "Error", "__version__"]
__version__ = _npusim.version()


class Result:
    """What a run produced.

    outputs   {name: ndarray}: every output's exact values, float32 (int32 for s32 outputs), the
              shape given; a bf16 / f16 / fp8 output's values are exact in float32.
    raw       {name: ndarray}: the bits of 16- and 8-bit outputs, uint16 (bf16, f16, s16) or
              uint8 (s8, u8, e4m3, e5m2, e8m0): e.g. raw["y"].view(np.float16) for an f16 output.
    dtypes    {name: "bf16", ...}: the npusim dtype of each output.
    stats     the run's statistics as a dict: stats.json of `npusim run --out` (docs/stats.md).
    cycles    total cycles (None on the ISS, which has no timing).
    report    the text report `npusim run` prints.
    verdict   "PASS", "FAIL" or "NOT CHECKED" (only run_case and golden files compare).
    warnings  the race checker's findings with race="warn".
    """

    def __init__(self, d):
        self.outputs = dict(d["outputs"])
        self.raw = dict(d["raw"])
        self.dtypes = dict(d["dtypes"])
        self.stats = json.loads(d["stats_json"])
        self.report = d["report"]
        self.warnings = list(d["warnings"])
        self.exit_code = d["exit_code"]
        self.cycles = self.stats.get("total_cycles")
        self.verdict = self.stats["numerics"]["verdict"]

    def __repr__(self):
        return "npusim.Result(outputs=%s, cycles=%s)" % (sorted(self.outputs), self.cycles)


def _array(name, a):
    a = np.asarray(a)
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    return np.ascontiguousarray(a)


def _tensor_spec(kind, name, spec):
    try:
        dtype, shape = spec
        shape = [int(d) for d in (shape if np.ndim(shape) else [shape])]
    except (TypeError, ValueError):
        raise Error("npusim.run(%s['%s']): error: expected (dtype, shape), e.g. ('bf16', (16, 256)), got %r"
                    % (kind, name, spec)) from None
    return (str(name), str(dtype), shape, kind == "outputs")


def _param(name, v):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise Error("npusim.run(params['%s']): error: expected an int or a float, got %r" % (name, v))
    if isinstance(v, (float, np.floating)):
        return (str(name), True, 0, float(v))
    return (str(name), False, int(v), 0.0)


def _sets(set):
    if set is None:
        return []
    if isinstance(set, dict):
        return ["%s=%s" % (k, str(v).lower() if isinstance(v, bool) else v) for k, v in set.items()]
    return [str(s) for s in set]


def run(kernel, inputs=None, outputs=None, params=None, config=None, set=None, block_dim=1, trace=None,
        vcd=None, workspaces=None, iss=False, race=None, out=None):
    """Runs a kernel once and returns a Result.

    kernel      a kernel file (.s source or .npuo object), or the source text itself (any string
                holding a newline); .include paths in source text resolve from the current directory.
    inputs      {name: array}: one per gm parameter the kernel reads. The tensor's dtype is the
                kernel's `.param name, gm, DTYPE`; give (dtype, array) for a parameter declared
                without one. Values are rounded RNE into the dtype as an input .npy file's are
                (float arrays), or taken as bits (uint16 for bf16/f16, uint8 for fp8), or exact
                integers for integer dtypes (golden/npy.h).
    outputs     {name: (dtype, shape)}: the tensors read back after the run (zero-filled before).
    workspaces  {name: (dtype, shape)}: scratch gm tensors (zero-filled, not read back).
    params      {name: int or float}: the kernel's int / f32 parameters.
    config      a hardware config: a shipped name ("ascend910b", "ascend950", "tiny") or a YAML
                path; default as for `npusim run` ($NPUSIM_CONFIG, else ascend910b).
    set         {key.path: value} (or ["key=value", ...]): config overrides, as --set.
    block_dim   how many blocks the launch has.
    trace, vcd  write a Chrome trace (Perfetto) / VCD waveform of the run to this path.
    iss         run the functional ISS instead of the SystemC model (race checker on, no cycles).
    race        "error", "warn" or "off" (default as for `npusim run`).
    out         write the output directory of `npusim run --out` here.
    """
    if not isinstance(kernel, str):
        raise Error("npusim.run(kernel): error: expected a path or source text, got %r" % (kernel,))
    ins = []
    for name, v in (inputs or {}).items():
        dtype = ""
        if isinstance(v, tuple):
            dtype, v = v
        ins.append((str(name), str(dtype), _array(name, v)))
    tensors = [_tensor_spec("outputs", n, s) for n, s in (outputs or {}).items()]
    tensors += [_tensor_spec("workspaces", n, s) for n, s in (workspaces or {}).items()]
    ps = [_param(n, v) for n, v in (params or {}).items()]
    return Result(_npusim.run(kernel, "\n" in kernel, ins, tensors, ps, int(block_dim), config or "", _sets(set),
                              trace or "", vcd or "", bool(iss), race or "", out or ""))


def run_case(case, var=None, config=None, set=None, trace=None, vcd=None, iss=False, race=None, out=None):
    """Runs a case file exactly as `npusim run CASE` does (var: {NAME: value} as --var); a Result."""
    vars = ["%s=%s" % (k, v) for k, v in (var or {}).items()]
    return Result(_npusim.run_case(str(case), vars, config or "", _sets(set), trace or "", vcd or "", bool(iss),
                                   race or "", out or ""))


class Comparison:
    """The verdict of compare(): truthy when it passes; the figures as in the CLI report."""

    def __init__(self, d):
        self.__dict__.update(d)

    def __bool__(self):
        return self.passed

    def __repr__(self):
        return "npusim.Comparison(%s)" % self.summary


def compare(out, ref, atol, rtol, ratio):
    """The comparison rule of docs/numerics.md (pypto-gym's compare), as npusim judges outputs.

    An element is bad when |out - ref| > atol + rtol * |ref|, or out is NaN/Inf where ref is finite;
    it passes when bad_count <= round(ratio * numel) (half to even). out and ref are values (e.g.
    Result.outputs[name], a float32 view): float arrays are taken as float32 (float64 rounded
    RNE), int32 exactly. Returns a Comparison (truthy when it passes).
    """
    def values(a):
        a = _array("", a)
        return a.astype(np.float32) if a.dtype.kind in "fb" or (a.dtype.kind in "iu" and a.dtype != np.int32) else a
    out, ref = values(out), values(ref)
    return Comparison(_npusim.compare(out, ref, float(atol), float(rtol), float(ratio)))


def default_tolerance(dtype):
    """(atol, rtol, max_error_ratio) of an output dtype (docs/numerics.md): compare(o, r, *tol)."""
    d = _npusim.default_tolerance(str(dtype))
    return (d["atol"], d["rtol"], d["max_error_ratio"])
