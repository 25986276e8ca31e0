// The command line of this npusim process (commands.h), for stats.json.
#include <string>

#include "cli/lib/commands.h"

namespace npu::cli {
namespace {

std::string& stored() {
  static std::string s;
  return s;
}

// Single quotes unless the word is made only of characters a shell leaves alone.
std::string shell_quote(const std::string& w) {
  if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                        "_-+=./:,@%") == std::string::npos)
    return w;
  std::string q = "'";
  for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

void set_command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + shell_quote(argv[i]);
  stored() = s;
}

const std::string& command_line() { return stored(); }

}  // namespace npu::cli
