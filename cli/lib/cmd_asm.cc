// npusim asm | disasm | isa-doc: the assembler, the disassembler and the ISA doc generator.
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/lib/commands.h"
#include "cli/lib/run_case.h"
#include "base/file_io.h"
#include "hw/config/kernel_symbols.h"
#include "hw/config/loader.h"
#include "hw/top/trace_vcd.h"
#include "isa/asm/assembler.h"
#include "isa/disasm.h"
#include "isa/error.h"
#include "isa/isa_doc.h"
#include "isa/listing.h"
#include "isa/object.h"

namespace npu::cli {
namespace {

struct AsmOpts {
  std::string in, out, arch, config;
  std::vector<std::string> sets;
  bool listing = false;
};
struct TextOpts {
  std::string in, out;
};

// Refuses an output path that names the input file (the same file, also through another path or
// a link): a tool must never overwrite its own source.
void refuse_overwriting_input(const std::string& in, const std::string& out) {
  struct stat si {}, so {};
  if (::stat(in.c_str(), &si) == 0 && ::stat(out.c_str(), &so) == 0 && si.st_dev == so.st_dev &&
      si.st_ino == so.st_ino)
    throw Error("-o '" + out + "' is the input file '" + in + "'; not overwriting it");
}

// Writes text to `out` (atomically) or to stdout when `out` is empty.
void emit_text(const std::string& out, const std::string& text) {
  if (out.empty()) std::cout << text;
  else write_file_atomic(out, text);
}

template <typename F>
void guarded(F&& f) {
  try {
    f();
  } catch (const npu::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    throw CLI::RuntimeError(2);
  }
}

}  // namespace

void register_asm(CLI::App& app) {
  auto a = std::make_shared<AsmOpts>();
  auto* as = app.add_subcommand("asm", "Assemble a kernel source file into an object file (.npuo)");
  as->add_option("input", a->in, "assembly source (.s)")->required();
  as->add_option("-o,--output", a->out, "object file to write (default: input with .npuo)");
  as->add_option("--config", a->config,
                 "hardware config (file or shipped name) whose figures the kernel's CFG_ constants take "
                 "(docs/kernels.md; default as for npusim run)");
  as->add_option("--set", a->sets, "override a config key: key.path=value (repeatable)");
  as->add_option("--arch", a->arch, "target architecture (default: the config's chip.arch; must match it)")
      ->check(CLI::IsMember({"a2", "a5"}));
  as->add_flag("--listing", a->listing,
               "print PC -> source file:line (and the macro invocations) -> disassembly per section; writes the "
               "object file only with -o");
  as->callback([a] {
    guarded([&] {
      std::string out = a->out;
      if (out.empty() && !a->listing) {
        size_t dot = a->in.rfind('.');
        size_t slash = a->in.rfind('/');
        out = (dot != std::string::npos && (slash == std::string::npos || dot > slash) ? a->in.substr(0, dot) : a->in) + ".npuo";
      }
      if (!out.empty()) refuse_overwriting_input(a->in, out);
      const std::string cfg_path = resolve_config_path(a->config);
      const hw::HwConfig cfg = hw::load_config(cfg_path, a->sets);
      if (!a->arch.empty() && a->arch != std::string(isa::arch_name(cfg.chip.arch)))
        throw Error("--arch " + a->arch + " does not match chip.arch " + std::string(isa::arch_name(cfg.chip.arch)) + " of " +
                    cfg_path + " (pick a config of that architecture with --config)");
      isa::AsmResult r = isa::assemble_file(a->in, hw::asm_target(cfg));
      if (!r.program) {  // an existing output file is left as it was
        std::cerr << r.format_diags();
        std::cerr << r.diags.size() << " error" << (r.diags.size() == 1 ? "" : "s") << "\n";
        throw CLI::RuntimeError(2);
      }
      if (a->listing) std::cout << isa::program_listing(*r.program);
      if (!out.empty()) isa::write_object_file(out, *r.program);
    });
  });

  auto d = std::make_shared<TextOpts>();
  auto* ds = app.add_subcommand("disasm", "Disassemble an object file back to assembly source");
  ds->add_option("input", d->in, "object file (.npuo)")->required();
  ds->add_option("-o,--output", d->out, "source file to write (default: stdout)");
  ds->callback([d] {
    guarded([&] {
      if (!d->out.empty()) refuse_overwriting_input(d->in, d->out);
      emit_text(d->out, isa::disassemble_program(isa::read_object_file(d->in)));
    });
  });

  auto doc = std::make_shared<TextOpts>();
  auto* is = app.add_subcommand("isa-doc", "Print the ISA reference (docs/isa.md) generated from the ISA table");
  is->add_option("-o,--output", doc->out, "file to write (default: stdout)");
  is->callback([doc] { guarded([&] { emit_text(doc->out, isa::generate_isa_markdown()); }); });

  auto filter = std::make_shared<TextOpts>();
  auto* gf = app.add_subcommand("gtkwave-filter",
                                "Print a GTKWave translate filter file that shows the VCD's opcode signals by name");
  gf->add_option("-o,--output", filter->out, "file to write (default: stdout)");
  gf->callback([filter] { guarded([&] { emit_text(filter->out, hw::gtkwave_opcode_filter()); }); });
}

}  // namespace npu::cli
