// npusim config-doc: print docs/config.md (generated from the schema).
// npusim config-check FILE [--set k=v]...: load a config strictly and print the resolved YAML.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/lib/commands.h"
#include "hw/config/config_doc.h"
#include "hw/config/loader.h"
#include "isa/error.h"

namespace npu::cli {

void register_config(CLI::App& app) {
  auto* doc = app.add_subcommand("config-doc", "Print the configuration reference (docs/config.md)");
  doc->callback([] { std::cout << hw::generate_config_markdown(); });

  struct Opts {
    std::string file;
    std::vector<std::string> sets;
  };
  auto opts = std::make_shared<Opts>();
  auto* check = app.add_subcommand("config-check", "Load a hardware config strictly and print it resolved");
  check->add_option("config", opts->file, "Hardware configuration YAML")->required();
  check->add_option("--set", opts->sets, "Override a key: --set l2.size=32MiB (repeatable)");
  check->callback([opts] {
    try {
      std::cout << hw::dump_resolved_yaml(hw::load_config(opts->file, opts->sets));
    } catch (const npu::Error& e) {
      std::cerr << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace npu::cli
