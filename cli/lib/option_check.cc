// Usage errors (commands.h): a misspelt option or subcommand is named with the closest one the
// command knows, so `run --tracee t.json` says "did you mean --trace?" rather than only that
// the arguments were not expected.
#include <CLI/CLI.hpp>

#include <iostream>

#include "base/edit_distance.h"
#include "cli/lib/commands.h"

namespace npu::cli {
namespace {

// The closest candidate when it is a near miss: at most 2 edits and at most half of its
// letters (so "-z" suggests nothing rather than "-o").
std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  const auto letters = [](const std::string& s) { return s.size() - s.find_first_not_of('-'); };
  std::string best;
  size_t best_d = 3;
  for (const std::string& c : candidates) {
    const size_t d = edit_distance(word, c);
    if (d < best_d && 2 * d <= letters(c)) best_d = d, best = c;
  }
  return best;
}

// "--name" and "-n" of every option of `cmd` and the commands above it (--help is inherited).
std::vector<std::string> option_names(const CLI::App* cmd) {
  std::vector<std::string> names;
  for (; cmd; cmd = cmd->get_parent())
    for (const CLI::Option* opt : cmd->get_options()) {
      for (const std::string& n : opt->get_lnames()) names.push_back("--" + n);
      for (const std::string& n : opt->get_snames()) names.push_back("-" + n);
    }
  return names;
}

// What a user wrote as a command: `npusim ... WORD`.
std::string command_path(const CLI::App* cmd) {
  return cmd->get_parent() ? command_path(cmd->get_parent()) + " " + cmd->get_name() : "npusim";
}

// Prints one "did you mean" line per word left over by the parse that is a near miss.
void suggest(CLI::App& app) {
  CLI::App* cmd = &app;
  while (!cmd->get_subcommands().empty()) cmd = cmd->get_subcommands().front();
  std::vector<std::string> subcommands;
  for (const CLI::App* sub : cmd->get_subcommands([](CLI::App*) { return true; })) subcommands.push_back(sub->get_name());
  for (const std::string& word : app.remaining(true)) {
    const bool is_option = word.size() > 1 && word[0] == '-';
    const std::string name = is_option ? word.substr(0, word.find('=')) : word;
    const std::string near = closest(name, is_option ? option_names(cmd) : subcommands);
    if (near.empty()) continue;
    std::cerr << "error: " << command_path(cmd) << ": unknown " << (is_option ? "option" : "subcommand") << " '"
              << name << "' (did you mean " << near << "?)\n";
  }
}

}  // namespace

int exit_for_parse_error(CLI::App& app, const CLI::ParseError& e) {
  if (app.exit(e) == 0) return 0;  // --help printed
  suggest(app);  // after CLI11's message, which lists every unexpected argument
  return 2;
}

}  // namespace npu::cli
