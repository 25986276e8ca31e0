// npusim: the command-line front end. Subcommands are in cli/lib/cmd_*.cc.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "base/build_info.h"
#include "base/huge_pages.h"
#include "base/sanitizer.h"
#include "cli/lib/commands.h"
#include "isa/error.h"

#if defined(__linux__) && defined(__GLIBC__) && !defined(NPUSIM_ASAN)  // ASan has its own allocator
// The heap in huge pages before any shared library's initialiser runs (an executable's
// .preinit_array runs first): libsystemc's clears a 3 MiB pool, ~750 first-touch faults in
// small pages. Measured on the README job as a process (docs/performance.md).
namespace {
void heap_in_huge_pages(int, char**, char**) { npu::use_huge_pages_for_heap(); }
__attribute__((section(".preinit_array"), used)) void (*const preinit_heap)(int, char**, char**) = heap_in_huge_pages;
}  // namespace
#endif

int main(int argc, char** argv) {
  // SystemC prints a banner at elaboration unless told not to (SYSTEMC-NOTES.md).
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  CLI::App app{"npusim: cycle-level simulator of an Ascend-like NPU and its kernel ISA"};
  app.set_version_flag("--version", std::string("npusim ") + npu::build_version() + " (git " + npu::build_git_hash() + ")",
                       "print the version and git commit, then exit");
  app.require_subcommand(1);
  npu::cli::set_command_line(argc, argv);
  npu::cli::register_asm(app);
  npu::cli::register_config(app);
  npu::cli::register_run(app);
  npu::cli::register_bench(app);
  npu::cli::register_trace_summary(app);
  npu::cli::register_calibrate(app);
  npu::cli::register_sweep(app);
  npu::cli::register_diff(app);
  npu::cli::refuse_options_as_values(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();  // a subcommand's own status (it printed its message)
  } catch (const CLI::ParseError& e) {
    return npu::cli::exit_for_parse_error(app, e);  // --help: 0; a usage error: 2
  } catch (const npu::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
