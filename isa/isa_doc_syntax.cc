// The hand-written part of docs/isa.md: assembler syntax and encoding conventions.
#include "isa/isa_doc_text.h"

namespace npu::isa {

const char* isa_doc_conventions() {
  return R"md(## Assembly syntax

One statement per line. Comments run from `#` or `//` to the end of the line.

```
# rmsnorm.s -- an example of every construct
.kernel rmsnorm                 # kernel name
.param  x,   gm, bf16           # parameters, in order: name, gm|int|f32 [, element dtype] [, nd|nz]
.param  n,   int
.param  eps, f32

.equ    TILE, 64 * 4            # named constant (usable before or after its definition)
.equ    ONE,  f32(1.0)          # fp32 bit pattern of a float expression
.reg    len, r5                 # register alias

.macro  scale dst, src          # macro with parameters; \name substitutes, \@ is unique per expansion
    vmuls.f32 \dst, \src, ONE, TILE
skip\@:
.endm

.aiv                            # start (or return to) the AIV section; .aic for the cube core
.semantic load                  # semantic label: from the next instruction on
    ldp     r1, x               # rd = kernel parameter `x`
    ldp     len, n
    mov_gm_ub 0x0, r1, 1, kib(4), 0, 0, normal
.rept 4, i                      # repeat the body with i = 0..3 (a constant; \i substitutes)
    scale   0x1000 + i * TILE * 4, 0x0
.endr
loop:                           # label (a branch target in this section)
    sub     len, len, 1
    bne     len, 0, loop
    end
```

- **Directives**: `.kernel NAME` (without it the kernel is named after the file's stem,
  made an identifier: `my-kernel.s` -> `my_kernel`); `.param NAME, gm|int|f32 [, dtype] [, nd|nz]` (index = position; `nz`: a gm tensor kept in the fractal layout in GM, "Fractal formats" below);
  `.aic` / `.aiv` switch the current section (a file may have one or both, and switch back);
  `.semantic NAME` (NAME: letters, digits, `_ . - /`; the later of two at the same pc wins);
  `.equ NAME, expr`; `.reg NAME, rN`; `.macro NAME [p1, p2 ...]` ... `.endm`;
  `.rept COUNT [, VAR]` ... `.endr` (VAR = 0..COUNT-1 as a constant and as `\VAR`; the count
  may use only constants defined above it). Macros and `.rept` nest (depth limit 64).
  `.include "FILE"` splices FILE's lines in place before anything else (path relative to the
  including file; nesting up to 16; a cycle is an error); errors inside it name FILE and its line.
- **Labels**: `name:` before a statement (several allowed). Labels belong to their section; a
  branch target must be a label of the same section. A label may follow the last instruction.
- **Instructions**: `mnemonic.suffix1.suffix2 op0, op1, ...` with the suffixes and operands in
  the order of the table below; operands in `[brackets]` are optional and may be omitted from
  the end (the default is listed).
- **Operands**: registers `r0`..`r31` (r0 reads as zero; writing it is allowed and ignored) or
  `.reg` aliases; keywords for enum operands (tables below); a declared parameter name for
  `param`; a label for `target`. A *reg or imm* operand is a register or an expression; a
  *reg* operand must be a register and an *imm* operand must not be one.
- **Expressions**: 64-bit integers (wrapping): decimal, `0x` hex, `0b` binary, `_` separators;
  operators with C precedence `~ - +` (unary), `* / %`, `+ -`, `<< >>` (arithmetic),
  `&`, `^`, `|`; parentheses; constants; `kib(n)` = n * 1024; `f32(x)` = the fp32 bit pattern
  (as a non-negative integer) of a float expression x (literals such as `1e-6`, `inf`, `nan`,
  constants, `+ - * /`). Float literals are allowed only inside `f32()`. Division by zero is an
  error. A signed immediate field also accepts its unsigned bit pattern (`0xbf800000` in a
  32-bit field is -1082130432).
- **Errors** are reported as `file:line:col: error: message`, then the line and a caret; every
  error in the file is reported. Errors inside a macro expansion point at the invocation and
  name the lines inside the macro bodies (`(in expansion of macro 'outer -> inner' at m.inc:3,
  via m.inc:6)`); the source map of an instruction (`npusim asm --listing`, faults, traces) is
  its macro-body line and every invocation, innermost first (`m.inc:3 (via m.inc:6, k.s:40)`).
- **Checks** beyond operand ranges: the instruction must exist on the target arch (`--arch`)
  and on the section's core type; dtypes: mmad bf16, f16, s8, f32; fix f32 -> bf16, f16, f32 and
  s32 -> f32, bf16, f16, s32; vector arithmetic f32, f16, bf16, s32, s16 (exp, ln, sqrt, rsqrt,
  rec: floats only; vcopy, vdup: also s8, u8); vcast between f32, f16, bf16, s32, s16, s8 (and
  e4m3, e5m2 on a5); tile loads any non-fp8 dtype (fp8 and e8m0 on a5); pipes named by sync
  instructions must exist on the core (AIC: scalar, mte1, mte2, cube, fixp; AIV: scalar, mte2,
  vector, mte3); set_flag/wait_flag need src != dst; cc_set mode 0..2.

## Encoding

Every instruction is one 128-bit word, stored little-endian as two 64-bit halves (bits 63..0
first). The opcode (the instruction's own number in the table, fixed once released) is in
bits [7:0]; the fields follow
LSB-first from bit 8 in table order (suffixes first, then operands):

| field kind | width | content |
|---|---|---|
| reg | 5 | register number |
| reg or imm | 1 + max(5, bits) | flag bit (1 = register), then the register number or the immediate (two's complement for signed) |
| imm / uimm | bits | two's complement / unsigned |
| target | 20 | absolute instruction index within the section |
| param | 8 | kernel parameter index |
| enum | bits | keyword value |

Bits above the last field are zero; the decoder rejects a nonzero unused bit, an unknown
opcode and an enum value without a keyword. Object files (`.npuo`) are described in
`isa/object.h`. Loading one applies the assembler's checks (`validate_program`, `isa/validate.h`:
operands, arch, core, dtypes, pipes, flags, branch targets, parameter indices, names, semantic
labels, limits), so an object the assembler could not have written is refused with one line per
problem (`aic pc 12 (disassembly): ...`) instead of failing at run time; `npusim disasm` checks
for a5 (which includes a2), `npusim run` for the config's arch. Object files carry the ISA
fingerprint below (a hash of every opcode, mnemonic, field and keyword); a file built for
another ISA is refused on load.

## Fractal formats

Real Ascend kernels keep matrices in GM in **ND** (row-major: row r, byte b at r x row stride
+ b) and convert them to the fractal **NZ** layout on the way into L1, the layout the cube's
tile loads read: the matrix is cut into column blocks 32 bytes wide (C0: 16 bf16/f16, 8 f32,
32 int8 elements); blocks follow each other at the C0 stride, and inside a block row r's 32
bytes are at r x 32 (16 rows x 32 B make one fractal). Byte b of row r of an NZ matrix at L1
offset `base` with C0 stride `s` bytes is at

    base + (b / 32) x s + r x 32 + b % 32

- `mov_gm_l1_nz dst, src, nburst, burst, src_stride, dst_stride`: `nburst` ND rows of `burst`
  bytes, `src_stride` apart in GM, -> NZ in L1 at `dst` with C0 stride `dst_stride`, as
  Ascend's `copy_gm_to_cbuf_multi_nd2nz` / AscendC `DataCopy` with `Nd2NzParams` (one ND
  matrix: ndNum = 1, dstNzNStride = 1; `dst_stride` = dstNzC0Stride x 32 B; CANN's intrinsic
  documentation, hiascend.com). A row whose length is not a multiple of 32 bytes is zero-filled
  to 32 bytes in L1; rows past `nburst` inside a C0 stride are not written (real kernels pad to
  whole 16-row fractals: `dst_stride` = ceil16(nburst) x 32). `dst` and `dst_stride` must be
  multiples of 32, `dst_stride` >= nburst x 32 (blocks must not overlap) and `src_stride` >=
  `burst`; a violation is a fault naming the operand. Cost:
  `mte.gm_l1_nz`, max(`min_cycles`, `startup` + the plain GM -> L1 copy), fitted to msKPP's
  GM_TO_L1_TRANS table (docs/calibration.md).
- `mov_l1_l0a` / `mov_l1_l0b` with `nz` = 1 read the rows x cols tile from an NZ matrix: `src`
  is the tile's first byte (a block start plus a row: base + j x s + r0 x 32, 32-byte
  aligned), `src_stride` the matrix's C0 stride `s`. `trans` = 1 writes the tile transposed
  as before (W [N, K] in NZ used as B [K, N], the b_trans path). L0A / L0B receive exactly what
  the ND tile load of the same matrix gives, at the same cost (the L1_TO_L0A/B tables are the
  hardware's native fractal loads).
- `fix` writes ND: L0C holds the accumulator in the hardware's NZ order (16 x 16 fractals), and
  FixPipe converts it to ND on the way out (Fixpipe with NZ2ND). Its cost is the plain
  L0C -> GM one: msKPP's L0C_TO_GM_TRANS table agrees with L0C_TO_GM within a median 2.4 %.
- A gm parameter declared `nz` (`.param w, gm, bf16, nz`) is a tensor kept NZ in GM, as
  inference stacks keep pre-converted weights (torch_npu `npu_format_cast` to FRACTAL_NZ): the
  tensor, a matrix of rows (all dimensions but the last) of row_bytes (the last), is stored as
  its 32-byte column blocks of ceil16(rows) rows each (C0 stride ceil16(rows) x 32; padding
  zero), byte b of row r at `base + (b / 32) x ceil16(rows) x 32 + r x 32 + b % 32`. `npusim run`
  stores the case's values so (and reads an output back so); the golden sees the logical values.
  Rows n0 .. n0 + n - 1 of one block are then n x 32 contiguous bytes: a plain `mov_gm_l1` with
  one burst per block copies a tile into L1's NZ layout without a conversion
  (`kernels/linear_wnz.s`).

Inside L0A, L0B and L0C the model keeps the operands in element order (row-major A [m, k],
B [k, n], C [m, n]) rather than the real ZZ (L0A), ZN (L0B) and NZ (L0C) fractal byte
placement: no instruction but the tile loads, `mmad` and `fix` touches these buffers, so the
placement is not observable, and the cube's cost is already counted in fractals
(`cube.m0/n0/k0`).
)md";
}

}  // namespace npu::isa
