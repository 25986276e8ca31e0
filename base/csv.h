#pragma once
// CSV fields of one line (RFC 4180 quoting: "a ""b"", c" is one field). Shared by the readers
// of npusim's own CSV files (instruction traces, trace merging).
#include <string>
#include <vector>

namespace npu {

// Splits `line` (without its newline; a trailing '\r' is dropped) into `out`; false on an
// unterminated quote.
bool csv_split(const std::string& line, std::vector<std::string>& out);

}  // namespace npu
