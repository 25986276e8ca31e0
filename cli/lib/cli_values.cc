// Values that look like options (commands.h). CLI11 gives an option that needs a value the
// next argument whatever it is, so `--trace --vcd x.vcd` would write the trace to a file named
// "--vcd" and `--out --iss` would create a directory "--iss" and drop the flag.
#include <CLI/CLI.hpp>

#include <cctype>

#include "cli/lib/commands.h"

namespace npu::cli {
namespace {

// "-q", "--vcd", "-o": an option; "-1", "-0.5", "-5:10", "-" (stdin by convention): a value.
bool looks_like_option(const std::string& v) {
  return v.size() >= 2 && v[0] == '-' && !std::isdigit(static_cast<unsigned char>(v[1])) && v[1] != '.';
}

void guard(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_positional() || opt->get_type_size() == 0) continue;  // flags take no value
    // One value per occurrence, also for repeatable options: `--set a=1 CASE` leaves CASE to
    // the positional argument.
    opt->allow_extra_args(false);
    opt->check(CLI::Validator(
        [](std::string& v) -> std::string {
          if (!looks_like_option(v)) return "";
          return "missing value: the next argument is the option '" + v + "' (a path of that name: ./" + v + ")";
        },
        "", "value, not an option"));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) guard(*sub);
}

}  // namespace

void refuse_options_as_values(CLI::App& app) { guard(app); }

}  // namespace npu::cli
