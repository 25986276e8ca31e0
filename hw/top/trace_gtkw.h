#pragma once
// A GTKWave save file for the VCD of `npusim run --vcd V --gtkw G` (docs/tracing.md): opens V
// with one group per core (its units' busy, opcode, pc, queue; flags; cross-core counters), one
// for the L2 slices, one for the HBM channels and the MTE count. Opcodes are shown by mnemonic
// through the translate filter file written beside G (G's name + ".opcodes", the text of
// `npusim gtkwave-filter`), counters and PCs in decimal, busy bits as waves; each signal is shown
// by its name inside the group ("MTE2 busy", a GTKWave alias). Only the first core's group starts
// open. Checked in GTKWave itself (testbench/system/trace_gtkw_test.cc).
#include <string>
#include <vector>

namespace npu::hw {

// names: the VCD's signals as VcdRecorder::add got them ("cluster0.aiv0.MTE2.busy"), bits their
// widths. Writes G and its filter file (atomically); throws npu::Error on an I/O error.
void write_gtkw(const std::string& gtkw_path, const std::string& vcd_path, const std::vector<std::string>& names,
                const std::vector<int>& bits);

}  // namespace npu::hw
