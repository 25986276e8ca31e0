// `npusim run --html` / `trace-summary --html` (cli/lib/html_report.h): the page is
// self-contained and deterministic, and Debian's chromium, headless, renders it: the script's
// counts of what it drew (read back from the DOM) match the instruction CSV of the same run, and
// a screenshot is saved in <build>/testbench/output/html_report/report.png.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

class HtmlReport : public CliScratchTest {};

// The chromium the test drives: $NPUSIM_CHROMIUM, else Debian's /usr/bin/chromium.
std::string chromium() {
  const char* env = std::getenv("NPUSIM_CHROMIUM");
  return env ? env : "/usr/bin/chromium";
}

// What the CSV of a run says the timeline must draw: tracks (core, pipe) and events (rows), and
// the stalls the page marks (a stall with a reason).
struct Expected {
  size_t tracks = 0, events = 0, stalls = 0;
};
Expected expected_from_csv(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // header: core,pipe,pc,disassembly,label,dispatch,start,end,stall,reason,...
  std::set<std::string> tracks;
  Expected x;
  while (std::getline(in, line)) {
    // No field before stall_reason holds a comma except the quoted disassembly (field 3).
    const std::regex row(R"re(^([^,]*),([^,]*),[^,]*,("(?:[^"]|"")*"|[^,]*),[^,]*,[^,]*,[^,]*,[^,]*,([^,]*),([^,]*),)re");
    std::smatch m;
    if (!std::regex_search(line, m, row)) continue;
    tracks.insert(m[1].str() + " " + m[2].str());
    ++x.events;
    if (m[4] != "0" && !m[5].str().empty()) ++x.stalls;
  }
  x.tracks = tracks.size();
  return x;
}

std::string chromium_flags(const std::string& profile) {
  return " --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update"
         " --disable-sync --no-first-run --user-data-dir=" + profile;
}

TEST_F(HtmlReport, RendersInHeadlessChromiumWithTheRunsTracksAndEvents) {
  ASSERT_EQ(npusim("run " + source_path("kernels/cases/rmsnorm_bf16.yaml") + " -q --html " + path("r.html") +
                   " --instr-csv " + path("r.csv")),
            0)
      << err_;
  const std::string html = slurp(path("r.html"));
  ASSERT_FALSE(html.empty());
  // Self-contained: no reference to anything outside the file.
  for (const char* outside : {"http://", "https://", "<script src", "<link", "@import", "url("})
    EXPECT_EQ(html.find(outside), std::string::npos) << outside;
  EXPECT_NE(html.find("Per label"), std::string::npos);
  EXPECT_NE(html.find("Bound"), std::string::npos);
  EXPECT_NE(html.find("Result: PASS"), std::string::npos);  // the text report's verdict
  EXPECT_EQ(std::filesystem::directory_iterator(dir_ / "work"), std::filesystem::directory_iterator())
      << "the scratch trace of --html is removed";

  const Expected x = expected_from_csv(slurp(path("r.csv")));
  ASSERT_GT(x.events, 100u);
  ASSERT_GT(x.stalls, 0u);

  if (!std::filesystem::exists(chromium())) {
    if (std::getenv("NPUSIM_SKIP_BROWSER")) GTEST_SKIP() << "NPUSIM_SKIP_BROWSER is set";
    FAIL() << chromium() << " not found: the HTML report is checked in Debian's chromium; install it with "
           << "scripts/setup.sh (or set NPUSIM_CHROMIUM, or NPUSIM_SKIP_BROWSER=1 to skip this check)";
  }
  const std::string flags = chromium_flags(path("profile"));
  const std::string url = "file://" + path("r.html");
  const std::string dom = path("dom.html");
  ASSERT_EQ(std::system(("timeout 120 " + chromium() + flags + " --dump-dom " + url + " > " + dom + " 2>" +
                         path("chromium.err")).c_str()),
            0)
      << slurp(path("chromium.err"));
  std::smatch m;
  const std::string d = slurp(dom);
  ASSERT_TRUE(std::regex_search(d, m, std::regex(R"re(id="drawn" data-tracks="(\d+)" data-events="(\d+)" data-waits="(\d+)" data-counters="(\d+)")re")))
      << "the page's script did not record what it drew:\n" << d.substr(0, 2000);
  EXPECT_EQ(std::stoul(m[1]), x.tracks);
  EXPECT_EQ(std::stoul(m[2]), x.events);
  EXPECT_EQ(std::stoul(m[3]), x.stalls);
  EXPECT_GT(std::stoul(m[4]), 0u) << "HBM / L2 counter samples";

  const std::filesystem::path out = std::filesystem::path(NPUSIM_BINARY_DIR) / "testbench/output/html_report";
  std::filesystem::create_directories(out);
  const std::string png = (out / "report.png").string();
  std::filesystem::remove(png);
  ASSERT_EQ(std::system(("timeout 120 " + chromium() + flags + " --window-size=1400,2000 --screenshot=" + png + " " +
                         url + " 2>" + path("chromium.err")).c_str()),
            0)
      << slurp(path("chromium.err"));
  EXPECT_GT(std::filesystem::file_size(png), 10000u) << "a screenshot with content: " << png;
}

TEST_F(HtmlReport, IsDeterministicAndAlsoComesFromTraceSummary) {
  const std::string run = "run " + source_path("kernels/cases/rmsnorm_bf16.yaml") + " -q ";
  ASSERT_EQ(npusim(run + "--html " + path("a.html") + " --trace " + path("t.json")), 0) << err_;
  ASSERT_EQ(npusim(run + "--html " + path("b.html")), 0) << err_;
  EXPECT_EQ(slurp(path("a.html")), slurp(path("b.html")));
  ASSERT_EQ(npusim("trace-summary " + path("t.json") + " --html " + path("s.html")), 0) << err_;
  const std::string s = slurp(path("s.html"));
  // Same timeline data as the run's page (the run's page adds the bound and numerics).
  auto data = [](const std::string& h) {
    const size_t a = h.find("id=\"trace-data\">");
    return h.substr(a, h.find("</script>", a) - a);
  };
  EXPECT_EQ(data(s), data(slurp(path("a.html"))));
  EXPECT_EQ(s.find("Numerics"), std::string::npos);
}

TEST_F(HtmlReport, RefusesTheIss) {
  EXPECT_EQ(npusim("run " + source_path("kernels/cases/rmsnorm_bf16.yaml") + " --iss --html " + path("r.html")), 2);
  EXPECT_NE(err_.find("--html needs the SystemC model"), std::string::npos) << err_;
  EXPECT_FALSE(std::filesystem::exists(path("r.html")));
}

}  // namespace
}  // namespace npu::test
