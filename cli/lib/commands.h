#pragma once
// Each subcommand lives in cli/lib/cmd_<name>.cc and registers itself on the app.
// A subcommand's callback reports failure by throwing CLI::RuntimeError(exit_code);
// bad input is exit code 2.
#include <string>

namespace CLI {
class App;
class ParseError;
}

namespace npu::cli {

void register_asm(CLI::App& app);      // npusim asm, npusim disasm, npusim isa-doc
void register_config(CLI::App& app);   // npusim config-doc, npusim config-check
void register_run(CLI::App& app);      // npusim run CASE
void register_bench(CLI::App& app);    // npusim bench
void register_trace_summary(CLI::App& app);  // npusim trace-summary FILE
void register_calibrate(CLI::App& app);  // npusim calibrate (model vs msKPP tables)
void register_sweep(CLI::App& app);      // npusim sweep SPEC, sweep merge, sweep plot
void register_diff(CLI::App& app);       // npusim diff OUT_A OUT_B

// After registering: every option of every command that takes a value refuses one that looks
// like an option ("--vcd", "-q"), so a missing value does not swallow the next flag.
void refuse_options_as_values(CLI::App& app);

// The command line npusim was started with (stats.json records it), words joined by spaces,
// each quoted for a POSIX shell when it needs to be.
void set_command_line(int argc, char** argv);
const std::string& command_line();

// The exit status for a failed parse (0 after --help, else 2), with CLI11's message and a "did
// you mean" for each misspelt option or subcommand.
int exit_for_parse_error(CLI::App& app, const CLI::ParseError& e);

}  // namespace npu::cli
